#!/usr/bin/env bash
# Brings up a real, single-machine Slurm cluster so that `cctk submit` can be tried on a laptop or in CI.
#
#   scripts/slurm-local.sh start [local]   one node named after this host (8 CPUs, 4 fake GPUs)
#   scripts/slurm-local.sh start netns     two nodes node1, node2, each in its own network namespace with two
#                                          NICs: eth0 10.10.1.N/24 (Slurm's traffic) and eth1 10.10.2.N/24
#   scripts/slurm-local.sh stop [--purge]  stop what this script started, either mode (--purge: also config,
#                                          state, logs, fake GPUs)
#   scripts/slurm-local.sh status          exit 0 when the daemons run and every node is usable
#   scripts/slurm-local.sh logs            print the tail of every daemon log (what CI shows on failure)
#   scripts/slurm-local.sh install         only install slurm-wlm and munge when missing
#
# Needs root and Debian/Ubuntu (installs slurm-wlm + munge with apt-get when they are missing).
# `start` is idempotent: the same mode, healthy, with the same configuration is left alone; anything else
# (the other mode, a dead daemon, a changed knob) is stopped and started again from an empty state
# directory (job ids begin at 1 again). Only one mode runs at a time.
#
# netns mode: each node is a network + UTS + mount namespace. Its slurmd runs with `-N nodeN` inside it,
# sees its own host name and, through a fresh sysfs, its own /sys/class/net (eth0, eth1, lo); the file
# system and the process table are shared (like a cluster's shared file system). The namespaces have no
# default route: only the two networks, bridged in this (root) namespace at .254, where slurmctld runs.
# /etc/hosts gets a marked block so that node1, node2 resolve everywhere.
#
# Knobs: CCTK_SLURM_CPUS (8 per node), CCTK_SLURM_GPUS (4 per node, 0 = no GRES),
#        CCTK_SLURM_NODE (local mode's node name, hostname -s), CCTK_SLURM_TIMEOUT (seconds to wait for
#        the nodes, 120), netns mode: CCTK_SLURM_NODES (2; the cctk diagnose ITs start 4),
#        CCTK_SLURM_NET0 / CCTK_SLURM_NET1 (the /24 networks of eth0 / eth1, 10.10.1 / 10.10.2).
set -euo pipefail

readonly CONF=/etc/slurm/slurm.conf          # the clients' default path: no SLURM_CONF needed
readonly GRES_CONF=/etc/slurm/gres.conf
readonly RUN=/run/cctk-slurm                 # pid files, mode, rendered config, namespaces made
readonly SPOOL=/var/spool/cctk-slurm
readonly LOGS=/var/log/cctk-slurm
readonly TAG="# written by cctk scripts/slurm-local.sh"
readonly HOSTS_BEGIN="# BEGIN cctk slurm-local netns"
readonly HOSTS_END="# END cctk slurm-local netns"
SELF=$(readlink -f "${BASH_SOURCE[0]}")
readonly SELF

cpus=${CCTK_SLURM_CPUS:-8}
gpus=${CCTK_SLURM_GPUS:-4}
node=${CCTK_SLURM_NODE:-$(hostname -s)}
timeout=${CCTK_SLURM_TIMEOUT:-120}
nnodes=${CCTK_SLURM_NODES:-2}
net0=${CCTK_SLURM_NET0:-10.10.1}
net1=${CCTK_SLURM_NET1:-10.10.2}

say() { echo "slurm-local: $*" >&2; }
fail() { say "error: $*"; exit 1; }

# ---------- processes (tracked by pid file; never by name)
running() { # pid: alive and not a zombie (PID 1 in containers may reap late)
    local state
    state=$(awk '/^State:/ {print $2}' "/proc/$1/status" 2>/dev/null) || return 1
    [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

pid_from() { # pidfile expected-comm -> pid on stdout when that process is alive
    local pid
    [ -s "$1" ] || return 1
    pid=$(tr -cd '0-9' <"$1")
    [ -n "$pid" ] && running "$pid" && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] && echo "$pid"
}

terminate() { # label pid...: SIGTERM, up to 10 s, then SIGKILL
    local label=$1 p left i
    shift
    [ $# -gt 0 ] || return 0
    say "stopping $label (pid $*)"
    kill -TERM "$@" 2>/dev/null || true
    for i in $(seq 100); do
        left=""
        for p in "$@"; do running "$p" && left="$left $p"; done
        [ -z "$left" ] && return 0
        sleep 0.1
    done
    say "$label still alive after SIGTERM:$left; SIGKILL"
    # shellcheck disable=SC2086
    kill -KILL $left 2>/dev/null || true
}

# ---------- packages
install_packages() {
    local tool missing=""
    for tool in slurmctld slurmd sbatch srun squeue scontrol munged munge unmunge runuser nsenter unshare ip; do
        command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
    done
    [ -x /usr/sbin/slurmstepd ] || missing="$missing slurmstepd"
    [ -z "$missing" ] && return 0
    say "missing:$missing; installing slurm-wlm, munge, util-linux and iproute2 with apt-get"
    command -v apt-get >/dev/null || fail "no apt-get here: install Slurm (slurm-wlm) and munge yourself"
    # No package may start daemons of its own: this script tracks every daemon it runs.
    local own_policy=no aptlog
    aptlog=$(mktemp)
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 0755 /usr/sbin/policy-rc.d && own_policy=yes
    fi
    local rc=0 try
    for try in 1 2 3; do
        rc=0
        { DEBIAN_FRONTEND=noninteractive apt-get update -q &&
          DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=300 --no-install-recommends \
              slurm-wlm slurm-client slurmctld slurmd munge procps util-linux iproute2; } >"$aptlog" 2>&1 || rc=$?
        [ $rc = 0 ] && break
        say "apt-get failed (try $try, rc $rc); retrying in $((try * 5)) s"
        sleep $((try * 5))
    done
    [ $own_policy = yes ] && rm -f /usr/sbin/policy-rc.d
    if [ $rc != 0 ]; then tail -n 30 "$aptlog" >&2; fail "could not install slurm-wlm/munge"; fi
    rm -f "$aptlog"
}

# ---------- munge: the credential daemon every Slurm RPC needs
munge_works() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }

start_munge() {
    install -d -o munge -g munge -m 0700 /etc/munge /var/log/munge
    install -d -o munge -g munge -m 0711 /var/lib/munge
    install -d -o munge -g munge -m 0755 /run/munge
    if [ ! -s /etc/munge/munge.key ]; then
        say "creating a munge key"
        if command -v mungekey >/dev/null; then
            mungekey --create --keyfile=/etc/munge/munge.key --force
        else
            head -c 1024 /dev/urandom >/etc/munge/munge.key
        fi
    fi
    chown munge:munge /etc/munge/munge.key
    chmod 0400 /etc/munge/munge.key
    munge_works && return 0
    local stale
    if stale=$(pid_from /run/munge/munged.pid munged); then terminate "unresponsive munged" "$stale"; fi
    say "starting munged"
    runuser -u munge -- /usr/sbin/munged --force
    local i
    for i in $(seq 50); do munge_works && break; sleep 0.1; done
    munge_works || fail "munged does not answer; see /var/log/munge/munged.log"
    cp /run/munge/munged.pid "$RUN/munged.pid"
}

# ---------- the nodes of a mode
node_names() { # mode -> one node name per line
    if [ "$1" = netns ]; then seq -f "node%g" 1 "$nnodes"; else echo "$node"; fi
}

node_addr() { # mode index(1..) -> the address slurmctld reaches the node's slurmd at
    if [ "$1" = netns ]; then echo "$net0.$2"; else echo 127.0.0.1; fi
}

# ---------- configuration
fake_gpus() { # /dev/cctkgpuN: char devices 1:3 (like /dev/null) that gres/gpu can hand out
    [ "$gpus" -gt 0 ] || return 1
    local i
    for i in $(seq 0 $((gpus - 1))); do
        [ -c "/dev/cctkgpu$i" ] && continue
        mknod -m 0666 "/dev/cctkgpu$i" c 1 3 2>/dev/null || { say "cannot create /dev/cctkgpu$i: no GPUs"; return 1; }
    done
}

write_slurm_conf() { # mode with-gres(yes|no)
    local mode=$1 mem gres_line="" gres_types="" ctl_addr=127.0.0.1 i=0 n
    mem=$(awk '/^MemTotal:/ {print int($2 / 1024 * 0.8)}' /proc/meminfo)
    if [ "$2" = yes ]; then gres_types="GresTypes=gpu"; gres_line="Gres=gpu:$gpus"; fi
    # netns: the nodes reach the controller at the bridge address of their eth0 network
    [ "$mode" = netns ] && ctl_addr=$net0.254
    cat <<EOF
$TAG ($mode mode); rewritten on every start
ClusterName=cctk-local
SlurmctldHost=$(hostname -s)($ctl_addr)
SlurmUser=slurm
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
SlurmctldPort=6817
SlurmdPort=6818
# no cgroups: works in containers and on small VMs; nothing confines or accounts a job
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
# no slurmdbd, so sacct is unavailable; finished jobs stay in scontrol for MinJobAge seconds
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$LOGS/jobcomp.log
MinJobAge=3600
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
# a job that can never fit is refused at submit instead of pending forever
EnforcePartLimits=ALL
# a node may claim more CPUs than the machine has
SlurmdParameters=config_overrides
$gres_types
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
KillWait=5
OverTimeLimit=0
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=60
SlurmctldPidFile=$RUN/slurmctld.pid
SlurmdPidFile=$RUN/slurmd-%n.pid
StateSaveLocation=$SPOOL/ctld
SlurmdSpoolDir=$SPOOL/d/%n
SlurmctldLogFile=$LOGS/slurmctld.log
SlurmdLogFile=$LOGS/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
EOF
    for n in $(node_names "$mode"); do
        i=$((i + 1))
        echo "NodeName=$n NodeAddr=$(node_addr "$mode" $i) CPUs=$cpus Boards=1 SocketsPerBoard=1" \
            "CoresPerSocket=$cpus ThreadsPerCore=1 RealMemory=$mem $gres_line State=UNKNOWN"
    done
    echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES"
}

write_gres_conf() { # with-gres(yes|no). File= is required: a Count-only GPU leaves the node INVAL.
    echo "$TAG"
    [ "$1" = yes ] || return 0
    echo "AutoDetect=off"
    echo "Name=gpu File=/dev/cctkgpu[0-$((gpus - 1))]"
}

put_conf() { # rendered target: keep a copy of a configuration that is not ours, once
    if [ -e "$2" ] && ! grep -qF "$TAG" "$2" && [ ! -e "$2.before-cctk" ]; then
        say "saving the existing $2 as $2.before-cctk"
        cp -p "$2" "$2.before-cctk"
    fi
    install -D -m 0644 "$1" "$2"
}

rewrite_hosts() { # drop our lines from /etc/hosts in place (it may be a bind mount, so no rename)
    local kept
    kept=$(awk -v b="$HOSTS_BEGIN" -v e="$HOSTS_END" -v t="$TAG" \
        '$0 == b {skip = 1; next} $0 == e {skip = 0; next} !skip && index($0, t) == 0' /etc/hosts)
    printf '%s\n' "$kept" >/etc/hosts
}

# ---------- netns mode: namespaces, bridges, NICs
made_namespaces() { cat "$RUN/netns" 2>/dev/null || true; }

net_up() {
    local b i ns host_end addrs
    addrs=$(ip -4 -o addr show)
    for b in "$net0" "$net1"; do
        if echo "$addrs" | grep -q " inet ${b//./\\.}\.[0-9]*/"; then
            fail "network $b.0/24 is already used on this machine; pick others with CCTK_SLURM_NET0/NET1"
        fi
    done
    for ns in $(node_names netns); do
        ip netns list | grep -qw "^$ns" && fail "a network namespace '$ns' exists and is not this script's"
    done
    for b in 0 1; do
        ip link add "cctkbr$b" type bridge
        ip addr add "$([ $b = 0 ] && echo "$net0" || echo "$net1").254/24" dev "cctkbr$b"
        ip link set "cctkbr$b" up
    done
    i=0
    for ns in $(node_names netns); do
        i=$((i + 1))
        ip netns add "$ns"
        echo "$ns" >>"$RUN/netns"
        ip -n "$ns" link set lo up
        for b in 0 1; do
            host_end="cctk${i}e$b"
            ip link add "$host_end" type veth peer name "eth$b" netns "$ns"
            ip link set "$host_end" master "cctkbr$b" up
            ip -n "$ns" addr add "$([ $b = 0 ] && echo "$net0" || echo "$net1").$i/24" dev "eth$b"
            ip -n "$ns" link set "eth$b" up
            echo 1 >"/proc/sys/net/ipv6/conf/$host_end/disable_ipv6" 2>/dev/null || true
        done
        ip netns exec "$ns" sh -c 'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6' 2>/dev/null || true
    done
    {
        echo "$HOSTS_BEGIN"
        i=0
        for ns in $(node_names netns); do
            i=$((i + 1))
            echo "$net0.$i $ns"
            echo "$net1.$i $ns-eth1"
        done
        echo "$HOSTS_END"
    } >>/etc/hosts
    say "namespaces $(node_names netns | tr '\n' ' ')with eth0 $net0.N and eth1 $net1.N; bridges cctkbr0/1"
}

net_down() {
    local ns p pids
    for ns in $(made_namespaces); do
        # whatever still runs in a node (orphaned tasks) goes with it; these pids are in our namespace
        pids=$(ip netns pids "$ns" 2>/dev/null || true)
        for p in $pids; do kill -KILL "$p" 2>/dev/null || true; done
        ip netns del "$ns" 2>/dev/null || true
    done
    for p in cctkbr0 cctkbr1; do
        if ip link show "$p" >/dev/null 2>&1; then ip link del "$p"; fi
    done
    rm -f "$RUN/netns"
    grep -qF "$HOSTS_BEGIN" /etc/hosts 2>/dev/null && rewrite_hosts
    return 0
}

boot_node() { # runs inside `nsenter --net unshare --uts --mount`: becomes slurmd of node $1
    local stash
    hostname "$1"
    # A fresh sysfs shows this namespace's NICs under /sys/class/net; slurmd still needs the host's
    # cgroup tree at /sys/fs/cgroup, so it is moved over. Private mounts: the host never sees this.
    stash=$(mktemp -d "$RUN/cgroup-$1.XXXXXX")
    mount --rbind /sys/fs/cgroup "$stash"
    umount -l /sys
    mount -t sysfs sysfs /sys
    mount --move "$stash" /sys/fs/cgroup
    rmdir "$stash" 2>/dev/null || true
    ulimit -n 65536 2>/dev/null || true
    ulimit -l unlimited 2>/dev/null || true
    exec /usr/sbin/slurmd -N "$1"
}

# ---------- daemons
ctld_pid() { pid_from "$RUN/slurmctld.pid" slurmctld; }
slurmd_pid() { pid_from "$RUN/slurmd-$1.pid" slurmd; }

node_state() { sinfo -h -n "$1" -o '%T' 2>/dev/null | head -n 1; }

usable() { # mode: daemons alive and every node can take jobs
    local n
    ctld_pid >/dev/null || return 1
    for n in $(node_names "$1"); do
        slurmd_pid "$n" >/dev/null || return 1
        case "$(node_state "$n")" in idle | mixed | allocated | completing) ;; *) return 1 ;; esac
    done
}

start_daemons() { # mode
    local mode=$1 i n state start
    say "starting slurmctld"
    (ulimit -n 65536 2>/dev/null || true; /usr/sbin/slurmctld) || fail "slurmctld did not start; see $LOGS/slurmctld.log"
    for i in $(seq 100); do
        ctld_pid >/dev/null && scontrol ping 2>/dev/null | grep -q 'is UP' && break
        sleep 0.1
    done
    scontrol ping 2>/dev/null | grep -q 'is UP' || fail "slurmctld does not answer; see $LOGS/slurmctld.log"
    for n in $(node_names "$mode"); do
        say "starting slurmd -N $n"
        if [ "$mode" = netns ]; then
            nsenter --net="/run/netns/$n" unshare --uts --mount --propagation private -- \
                bash "$SELF" __boot-node "$n" || fail "slurmd of $n did not start; see $LOGS/slurmd-$n.log"
        else
            (ulimit -n 65536 2>/dev/null || true; ulimit -l unlimited 2>/dev/null || true
             /usr/sbin/slurmd -N "$n") || fail "slurmd did not start; see $LOGS/slurmd-$n.log"
        fi
    done
    start=$SECONDS
    for n in $(node_names "$mode"); do
        while :; do
            state=$(node_state "$n")
            [ "$state" = idle ] && break
            if [ $((SECONDS - start)) -ge "$timeout" ]; then
                sinfo -N -l >&2 || true
                sinfo -R >&2 || true
                fail "node $n is '${state:-unknown}', not idle, after ${timeout}s; see $LOGS/"
            fi
            sleep 0.2
        done
    done
}

stop_daemons() { # either mode: everything a pid file of ours names, then the namespaces
    local pids="" p f jobs i stepd
    if ctld_pid >/dev/null; then
        jobs=$(squeue -h -o %A 2>/dev/null || true)
        if [ -n "$jobs" ]; then
            say "cancelling jobs $(echo "$jobs" | tr '\n' ' ')"
            # shellcheck disable=SC2086
            scancel $jobs 2>/dev/null || true
            for i in $(seq 100); do [ -z "$(squeue -h -o %A 2>/dev/null)" ] && break; sleep 0.1; done
        fi
    fi
    for f in "$RUN"/slurmd-*.pid "$RUN/slurmd.pid"; do
        p=$(pid_from "$f" slurmd) && pids="$pids $p"
    done
    p=$(ctld_pid) && pids="$pids $p"
    # shellcheck disable=SC2086
    terminate "slurmd and slurmctld" $pids
    # steps whose slurmd is gone would run on: end them by pid (slurmstepd ignores SIGTERM at times)
    stepd=$(readlink -f /usr/sbin/slurmstepd 2>/dev/null || true)
    pids=""
    for p in /proc/[0-9]*; do
        [ -n "$stepd" ] && [ "$(readlink "$p/exe" 2>/dev/null)" = "$stepd" ] && pids="$pids ${p#/proc/}"
    done
    # shellcheck disable=SC2086
    [ -n "$pids" ] && kill -KILL $pids 2>/dev/null || true
    net_down
    rm -f "$RUN/slurmctld.pid" "$RUN"/slurmd-*.pid "$RUN/slurmd.pid" "$RUN/mode"
}

smoke() { # mode: one real job step on every node: ctld -> slurmd -> slurmstepd -> task
    local mode=$1 out want n nics err
    n=$(node_names "$mode" | wc -l)
    want=$(node_names "$mode" | sort | tr '\n' ' ')
    err=$(mktemp)
    # only the tasks' output is compared: srun's own notes ("queued and waiting") go to the error file
    out=$(cd / && timeout 60 srun -N"$n" --ntasks-per-node=1 -t 1 -J cctk-smoke hostname 2>"$err" | sort |
        tr '\n' ' ') || { cat "$err" >&2; rm -f "$err"; fail "smoke srun failed: $out"; }
    [ "$out" = "$want" ] || { cat "$err" >&2; rm -f "$err"; fail "smoke srun ran on hosts '$out', expected '$want'"; }
    if [ "$mode" = netns ]; then
        nics=$(cd / && timeout 60 srun -N"$n" --ntasks-per-node=1 -t 1 -J cctk-smoke ls /sys/class/net 2>"$err" |
            sort -u | tr '\n' ' ')
        [ "$nics" = "eth0 eth1 lo " ] ||
            { cat "$err" >&2; rm -f "$err"; fail "the nodes' tasks see NICs '$nics', expected 'eth0 eth1 lo'"; }
        say "smoke test: srun ran on ${out% }; each sees eth0 eth1 lo"
    else
        say "smoke test: srun ran a task on ${out% }"
    fi
    rm -f "$err"
}

# ---------- commands
cmd_start() {
    local mode=${1:-local} t0=$SECONDS gres=no
    case "$mode" in
        local | netns) ;;
        *) fail "unknown mode '$mode' (usage: $0 start [local|netns])" ;;
    esac
    [ "$(id -u)" = 0 ] || fail "needs root (it installs packages and runs the Slurm daemons)"
    [[ "$cpus" =~ ^[1-9][0-9]*$ ]] || fail "CCTK_SLURM_CPUS must be a positive integer"
    [[ "$gpus" =~ ^[0-9]+$ ]] || fail "CCTK_SLURM_GPUS must be 0 or more"
    [[ "$nnodes" =~ ^[1-9][0-9]?$ ]] || fail "CCTK_SLURM_NODES must be 1 to 99"
    mkdir -p "$RUN"
    install_packages
    start_munge
    fake_gpus && gres=yes
    write_slurm_conf "$mode" "$gres" >"$RUN/slurm.conf"
    write_gres_conf "$gres" >"$RUN/gres.conf"
    if [ "$(cat "$RUN/mode" 2>/dev/null)" = "$mode" ] && cmp -s "$RUN/slurm.conf" "$CONF" &&
        cmp -s "$RUN/gres.conf" "$GRES_CONF" && usable "$mode"; then
        say "already running ($mode, same configuration); nothing to do"
        return 0
    fi
    stop_daemons
    rm -rf "$SPOOL"
    install -d -m 0755 "$SPOOL" "$SPOOL/d"
    install -d -o slurm -g slurm -m 0755 "$SPOOL/ctld" "$LOGS"
    # the finished-job log survives restarts, so CI can show every job of a run at the end
    [ -e "$LOGS/jobcomp.log" ] || install -o slurm -g slurm -m 0644 /dev/null "$LOGS/jobcomp.log"
    put_conf "$RUN/slurm.conf" "$CONF"
    put_conf "$RUN/gres.conf" "$GRES_CONF"
    if [ "$mode" = netns ]; then
        net_up
    elif ! getent hosts "$node" >/dev/null; then
        grep -qF "127.0.0.1 $node $TAG" /etc/hosts || echo "127.0.0.1 $node $TAG" >>/etc/hosts
    fi
    start_daemons "$mode"
    echo "$mode" >"$RUN/mode"
    smoke "$mode"
    say "ready in $((SECONDS - t0)) s ($mode): nodes $(node_names "$mode" | tr '\n' ' ')with $cpus CPUs and" \
        "$([ $gres = yes ] && echo "$gpus" || echo 0) GPUs each"
    cat <<EOF
Try:   sinfo -N -l ; sbatch --parsable job.sh ; scontrol show job ID   (no sacct: there is no accounting)
       cctk submit configs/$([ "$mode" = netns ] && echo two-nic-2node || echo ci-slurm).yaml --wait
Logs:  $LOGS/   Stop: $0 stop
EOF
}

cmd_stop() {
    [ "$(id -u)" = 0 ] || fail "needs root"
    mkdir -p "$RUN"
    stop_daemons
    local p
    if p=$(pid_from "$RUN/munged.pid" munged); then terminate munged "$p"; fi
    rm -f "$RUN/munged.pid"
    if [ "${1:-}" = --purge ]; then
        say "removing $SPOOL $LOGS, the configuration and the fake GPUs"
        local f
        for f in "$CONF" "$GRES_CONF"; do
            if [ -e "$f" ] && grep -qF "$TAG" "$f"; then
                rm -f "$f"
                if [ -e "$f.before-cctk" ]; then mv "$f.before-cctk" "$f"; fi
            fi
        done
        rewrite_hosts 2>/dev/null || true
        rm -rf "$SPOOL" "$LOGS" "$RUN" /dev/cctkgpu[0-9]*
    fi
    say "stopped"
}

cmd_status() {
    local p n rc=0 mode
    mode=$(cat "$RUN/mode" 2>/dev/null || echo none)
    echo "mode: $mode"
    [ "$mode" = none ] && return 1
    if p=$(ctld_pid); then echo "slurmctld: pid $p"; else echo "slurmctld: not running"; rc=1; fi
    for n in $(node_names "$mode"); do
        if p=$(slurmd_pid "$n"); then echo "slurmd $n: pid $p, $(node_state "$n")"; else
            echo "slurmd $n: not running"; rc=1; fi
    done
    if munge_works; then echo "munge: working"; else echo "munge: not working"; rc=1; fi
    [ $rc = 0 ] && { usable "$mode" || rc=1; }
    return $rc
}

cmd_logs() {
    local f
    for f in "$LOGS"/slurmctld.log "$LOGS"/slurmd-*.log "$LOGS"/jobcomp.log /var/log/munge/munged.log; do
        [ -e "$f" ] || continue
        echo "===== $f (last 60 lines)"
        tail -n 60 "$f"
    done
    command -v sinfo >/dev/null && { echo "===== sinfo"; sinfo -N -l 2>&1 || true; sinfo -R 2>&1 || true; }
    return 0
}

case "${1:-}" in
    start) shift; cmd_start "$@" ;;
    stop) shift; cmd_stop "$@" ;;
    status) cmd_status ;;
    install) [ "$(id -u)" = 0 ] || fail "needs root"; install_packages ;;
    logs) cmd_logs ;;
    __boot-node) boot_node "$2" ;;
    *) echo "usage: $0 start [local|netns] | stop [--purge] | status | logs | install" >&2; exit 2 ;;
esac
