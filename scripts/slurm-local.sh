#!/usr/bin/env bash
# Brings up a real, single-machine Slurm cluster so that `cctk submit` can be tried on a laptop or in CI.
#
#   scripts/slurm-local.sh start [local]   one node named after this host (8 CPUs, 4 fake GPUs)
#   scripts/slurm-local.sh stop [--purge]  stop what this script started (--purge: also config, state, logs)
#   scripts/slurm-local.sh status          exit 0 when the daemons run and the node is usable
#   scripts/slurm-local.sh logs            print the tail of every daemon log (what CI shows on failure)
#   scripts/slurm-local.sh install         only install slurm-wlm and munge when missing
#
# Needs root and Debian/Ubuntu (installs slurm-wlm + munge with apt-get when they are missing).
# `start` is idempotent: a healthy cluster with the same configuration is left alone; anything else is
# stopped and started again from an empty state directory (job ids begin at 1 again).
# A later `start netns` mode (two nodes in network namespaces with eth0/eth1 each) is planned.
#
# Knobs: CCTK_SLURM_CPUS (8), CCTK_SLURM_GPUS (4, 0 = no GRES), CCTK_SLURM_NODE (hostname -s),
#        CCTK_SLURM_TIMEOUT (seconds to wait for the node, 120).
set -euo pipefail

readonly CONF=/etc/slurm/slurm.conf          # the clients' default path: no SLURM_CONF needed
readonly GRES_CONF=/etc/slurm/gres.conf
readonly RUN=/run/cctk-slurm                 # pid files, mode, rendered config
readonly SPOOL=/var/spool/cctk-slurm
readonly LOGS=/var/log/cctk-slurm
readonly TAG="# written by cctk scripts/slurm-local.sh"

cpus=${CCTK_SLURM_CPUS:-8}
gpus=${CCTK_SLURM_GPUS:-4}
node=${CCTK_SLURM_NODE:-$(hostname -s)}
timeout=${CCTK_SLURM_TIMEOUT:-120}

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
    for tool in slurmctld slurmd sbatch srun squeue scontrol munged munge unmunge runuser; do
        command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
    done
    [ -x /usr/sbin/slurmstepd ] || missing="$missing slurmstepd"
    [ -z "$missing" ] && return 0
    say "missing:$missing; installing slurm-wlm and munge with apt-get"
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
              slurm-wlm slurm-client slurmctld slurmd munge procps util-linux; } >"$aptlog" 2>&1 || rc=$?
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

# ---------- configuration
fake_gpus() { # /dev/cctkgpuN: char devices 1:3 (like /dev/null) that gres/gpu can hand out
    [ "$gpus" -gt 0 ] || return 1
    local i
    for i in $(seq 0 $((gpus - 1))); do
        [ -c "/dev/cctkgpu$i" ] && continue
        mknod -m 0666 "/dev/cctkgpu$i" c 1 3 2>/dev/null || { say "cannot create /dev/cctkgpu$i: no GPUs"; return 1; }
    done
}

write_slurm_conf() { # with-gres(yes|no)
    local mem gres_line="" gres_types=""
    mem=$(awk '/^MemTotal:/ {print int($2 / 1024 * 0.8)}' /proc/meminfo)
    if [ "$1" = yes ]; then gres_types="GresTypes=gpu"; gres_line="Gres=gpu:$gpus"; fi
    cat <<EOF
$TAG (local mode); rewritten on every start
ClusterName=cctk-local
SlurmctldHost=$(hostname -s)(127.0.0.1)
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
# the node may claim more CPUs than the machine has
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
SlurmdPidFile=$RUN/slurmd.pid
StateSaveLocation=$SPOOL/ctld
SlurmdSpoolDir=$SPOOL/d
SlurmctldLogFile=$LOGS/slurmctld.log
SlurmdLogFile=$LOGS/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus Boards=1 SocketsPerBoard=1 CoresPerSocket=$cpus ThreadsPerCore=1 RealMemory=$mem $gres_line State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
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

# ---------- daemons
ctld_pid() { pid_from "$RUN/slurmctld.pid" slurmctld; }
slurmd_pid() { pid_from "$RUN/slurmd.pid" slurmd; }

node_state() { sinfo -h -n "$node" -o '%T' 2>/dev/null | head -n 1; }

usable() { # daemons alive and the node can take jobs
    ctld_pid >/dev/null && slurmd_pid >/dev/null || return 1
    case "$(node_state)" in idle | mixed | allocated | completing) return 0 ;; *) return 1 ;; esac
}

start_daemons() {
    say "starting slurmctld"
    (ulimit -n 65536 2>/dev/null || true; /usr/sbin/slurmctld) || fail "slurmctld did not start; see $LOGS/slurmctld.log"
    local i
    for i in $(seq 100); do
        ctld_pid >/dev/null && scontrol ping 2>/dev/null | grep -q 'is UP' && break
        sleep 0.1
    done
    scontrol ping 2>/dev/null | grep -q 'is UP' || fail "slurmctld does not answer; see $LOGS/slurmctld.log"
    say "starting slurmd -N $node"
    (ulimit -n 65536 2>/dev/null || true; ulimit -l unlimited 2>/dev/null || true; /usr/sbin/slurmd -N "$node") ||
        fail "slurmd did not start; see $LOGS/slurmd.log"
    local start=$SECONDS state
    while :; do
        state=$(node_state)
        [ "$state" = idle ] && return 0
        if [ $((SECONDS - start)) -ge "$timeout" ]; then
            sinfo -N -l >&2 || true
            sinfo -R >&2 || true
            fail "node $node is '${state:-unknown}', not idle, after ${timeout}s; see $LOGS/"
        fi
        sleep 0.2
    done
}

stop_daemons() {
    local pids="" p jobs i
    if ctld_pid >/dev/null; then
        jobs=$(squeue -h -o %A 2>/dev/null || true)
        if [ -n "$jobs" ]; then
            say "cancelling jobs $(echo "$jobs" | tr '\n' ' ')"
            # shellcheck disable=SC2086
            scancel $jobs 2>/dev/null || true
            for i in $(seq 100); do [ -z "$(squeue -h -o %A 2>/dev/null)" ] && break; sleep 0.1; done
        fi
    fi
    p=$(slurmd_pid) && pids="$pids $p"
    p=$(ctld_pid) && pids="$pids $p"
    # shellcheck disable=SC2086
    terminate "slurmd and slurmctld" $pids
    # steps whose slurmd is gone would run on: end them by pid (slurmstepd ignores SIGTERM at times)
    local stepd
    stepd=$(readlink -f /usr/sbin/slurmstepd 2>/dev/null || true)
    pids=""
    for p in /proc/[0-9]*; do
        [ -n "$stepd" ] && [ "$(readlink "$p/exe" 2>/dev/null)" = "$stepd" ] && pids="$pids ${p#/proc/}"
    done
    # shellcheck disable=SC2086
    [ -n "$pids" ] && kill -KILL $pids 2>/dev/null || true
    rm -f "$RUN/slurmctld.pid" "$RUN/slurmd.pid" "$RUN/mode"
}

smoke() { # one real job step through the whole path: ctld -> slurmd -> slurmstepd -> task
    local out
    out=$(cd / && timeout 60 srun -N1 -n1 -t 1 -J cctk-smoke printenv SLURMD_NODENAME 2>&1) || fail "smoke srun failed: $out"
    [ "$out" = "$node" ] || fail "smoke srun ran on '$out', expected $node"
    say "smoke test: srun ran a task on $out"
}

# ---------- commands
cmd_start() {
    local mode=${1:-local} t0=$SECONDS gres=no
    case "$mode" in
        local) ;;
        netns) fail "'start netns' (two nodes with two NICs each) is not written yet; use 'start local'" ;;
        *) fail "unknown mode '$mode' (usage: $0 start [local])" ;;
    esac
    [ "$(id -u)" = 0 ] || fail "needs root (it installs packages and runs the Slurm daemons)"
    [[ "$cpus" =~ ^[1-9][0-9]*$ ]] || fail "CCTK_SLURM_CPUS must be a positive integer"
    [[ "$gpus" =~ ^[0-9]+$ ]] || fail "CCTK_SLURM_GPUS must be 0 or more"
    mkdir -p "$RUN"
    install_packages
    start_munge
    fake_gpus && gres=yes
    write_slurm_conf "$gres" >"$RUN/slurm.conf"
    write_gres_conf "$gres" >"$RUN/gres.conf"
    if [ "$(cat "$RUN/mode" 2>/dev/null)" = "$mode" ] && cmp -s "$RUN/slurm.conf" "$CONF" &&
        cmp -s "$RUN/gres.conf" "$GRES_CONF" && usable; then
        say "already running ($mode, same configuration); nothing to do"
        return 0
    fi
    stop_daemons
    rm -rf "$SPOOL"
    install -d -m 0755 "$SPOOL" "$SPOOL/d"
    install -d -o slurm -g slurm -m 0755 "$SPOOL/ctld" "$LOGS"
    install -o slurm -g slurm -m 0644 /dev/null "$LOGS/jobcomp.log"
    put_conf "$RUN/slurm.conf" "$CONF"
    put_conf "$RUN/gres.conf" "$GRES_CONF"
    if ! getent hosts "$node" >/dev/null; then
        grep -qF "127.0.0.1 $node $TAG" /etc/hosts || echo "127.0.0.1 $node $TAG" >>/etc/hosts
    fi
    start_daemons
    echo "$mode" >"$RUN/mode"
    smoke
    say "ready in $((SECONDS - t0)) s: node $node, $cpus CPUs, $([ $gres = yes ] && echo "$gpus" || echo 0) GPUs"
    cat <<EOF
Try:   sinfo -N -l ; sbatch --parsable job.sh ; scontrol show job ID   (no sacct: there is no accounting)
       cctk submit configs/ci-slurm.yaml --wait
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
        sed -i "\|$TAG|d" /etc/hosts 2>/dev/null || true
        rm -rf "$SPOOL" "$LOGS" "$RUN" /dev/cctkgpu[0-9]*
    fi
    say "stopped"
}

cmd_status() {
    local p rc=0
    echo "mode: $(cat "$RUN/mode" 2>/dev/null || echo none)"
    if p=$(ctld_pid); then echo "slurmctld: pid $p"; else echo "slurmctld: not running"; rc=1; fi
    if p=$(slurmd_pid); then echo "slurmd: pid $p"; else echo "slurmd: not running"; rc=1; fi
    if munge_works; then echo "munge: working"; else echo "munge: not working"; rc=1; fi
    if [ $rc = 0 ]; then
        echo "node $node: $(node_state)"
        usable || rc=1
    fi
    return $rc
}

cmd_logs() {
    local f
    for f in "$LOGS"/slurmctld.log "$LOGS"/slurmd.log "$LOGS"/jobcomp.log /var/log/munge/munged.log; do
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
    *) echo "usage: $0 start [local] | stop [--purge] | status | logs | install" >&2; exit 2 ;;
esac
