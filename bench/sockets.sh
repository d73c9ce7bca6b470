#!/usr/bin/env bash
# Issue 16's scale check of connection counts: runs W (default 64) local ranks through the product
# (`java -jar cctk.jar run SPEC`), counts the sockets every rank process holds while it runs (sockets.py samples
# /proc/PID/fd and /proc/net/tcp) and prints the count per rank against the formula of the tcp backend's lazy mesh:
#   per rank N x (1 + P) TCP sockets, N = NICs (stripes): one listening socket per NIC, and one link per NIC to each
#   peer an algorithm uses; P = |{r +- 2^k mod W : 2^k < W} \ {r}| (rings, chains, the barrier and the sweep's
#   recursive-doubling reduction all stay inside it; 11 at W = 64) when no all-to-all runs, W - 1 when one does
#   or when W <= 8 (cctk.tcp.directMaxRanks: up to 8 ranks all-gather and small all-reduce talk to every peer).
#   The rendezvous store's sockets (each rank's connection to rank 0's store; rank 0's listening and accepted ones)
#   are counted apart.
# Cases (CASES): flat-ring  tcp-flat, every collective but alltoall and alltoallv       formula N (1 + P)
#                flat-all   tcp-flat, every collective                                  formula N W
#                flat-2nic  tcp-flat, every collective but all-to-all(v), nics [lo, NIC2] formula 2 (1 + P)
#                tcp        tcp (one host: shared memory), every collective              no TCP mesh expected: 0
#
# usage: bench/sockets.sh     env: JAR=target/cctk.jar OUT=dir W=64 CASES="flat-ring flat-all flat-2nic tcp"
#                                  SIZES="[4KiB, 256KiB]" NIC2=eth0 (a second interface with an address here)
# Take the lock (64 JVMs on this machine): flock /tmp/cctk-bench.lock bench/sockets.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
JAR=${JAR:-$ROOT/target/cctk.jar}
W=${W:-64}
CASES=${CASES:-"flat-ring flat-all flat-2nic tcp"}
SIZES=${SIZES:-"[4KiB, 256KiB]"}
NIC2=${NIC2:-eth0}
DIRECT=8   # Tuning.DIRECT_MAX_RANKS_DEFAULT: up to 8 ranks all-gather and small all-reduce talk to every peer
OUT=${OUT:-$ROOT/target/bench-results/sockets-$(date +%Y%m%d-%H%M%S)}
OUT=$(mkdir -p "$OUT" && cd "$OUT" && pwd)
[ -f "$JAR" ] || { echo "no jar at $JAR (mvn -o -q -DskipTests package, or set JAR)" >&2; exit 2; }
RING="[all_reduce, all_gather, reduce_scatter, broadcast, reduce, sendrecv, barrier]"

peers() {  # W -> W - 1 up to DIRECT ranks, else |{r +- 2^k mod W : 2^k < W} \ {r}| (the same for every r)
  /usr/bin/python3 -c "import sys; w, direct = int(sys.argv[1]), int(sys.argv[2])
d = [1 << k for k in range(w.bit_length()) if (1 << k) < w]
print(w - 1 if w <= direct else len(({x % w for x in d} | {-x % w for x in d}) - {0}))" "$1" "$DIRECT"
}
P=$(peers "$W")

spec() {  # case backend collectives nics
  cat > "$OUT/$1.yaml" <<EOF
job:
  name: sockets-$1
  output_dir: $OUT/results/$1
resources:
  nodes: 1
  tasks_per_node: $W
  nics: $4
benchmark:
  backends: [$2]
  tasks: [$W]
  collectives: $3
  sizes: $SIZES
  dtypes: [float32]
  ops: [sum]
  warmup: 1
  iters: 2
  check_iters: 1
  in_place: false
  jit_warmup: 0
EOF
}

echo "{" > "$OUT/cases.json"
sep=""
for c in $CASES; do
  case $c in
    flat-ring) spec "$c" tcp-flat "$RING" "[]"; n=1; f=$((1 + P)); ft="= 1 x (1 + $P)"
               what="tcp-flat, 1 NIC (lo), no all-to-all" ;;
    flat-all) spec "$c" tcp-flat all "[]"; n=1; f=$W; ft="= 1 x $W"; what="tcp-flat, 1 NIC (lo), every collective" ;;
    flat-2nic)
      if ! ip -o -4 addr show dev "$NIC2" 2>/dev/null | grep -q inet; then
        echo "$c: skipped, $NIC2 has no IPv4 address here (set NIC2)" | tee -a "$OUT/log.txt"; continue
      fi
      spec "$c" tcp-flat "$RING" "[lo, $NIC2]"; n=2; f=$((2 * (1 + P))); ft="= 2 x (1 + $P)"
      what="tcp-flat, 2 NICs (lo, $NIC2), no all-to-all" ;;
    tcp) spec "$c" tcp all "[]"; n=1; f=0; ft="(shared memory)"; what="tcp (shared memory on one host), every collective" ;;
    *) echo "unknown case $c" >&2; exit 2 ;;
  esac
  flag=""
  for attempt in 1 2; do
    echo "$c: $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg) MemAvailable $(awk '/MemAvailable/ {print int($2/1024) " MiB"}' /proc/meminfo) $flag" \
      | tee -a "$OUT/log.txt"
    rc=0
    java -jar "$JAR" run "$OUT/$c.yaml" --quiet $flag > "$OUT/$c.log" 2>&1 &
    pid=$!
    /usr/bin/python3 "$ROOT/bench/sockets.py" sample "$pid" "$OUT/$c.json" 0.2 &
    spid=$!
    wait "$pid" || rc=$?
    wait "$spid" || true
    # a refusal for lack of room (exit 2 naming the flag): say so and start them anyway
    if [ "$rc" -eq 2 ] && [ -z "$flag" ] && grep -q -- "--oversubscribe" "$OUT/$c.log"; then
      grep -- "--oversubscribe" "$OUT/$c.log" | tee -a "$OUT/log.txt"
      flag="--oversubscribe"
      continue
    fi
    break
  done
  echo "$c: exit $rc$( [ -n "$flag" ] && echo ", started with $flag"), $(date +%T)" | tee -a "$OUT/log.txt"
  printf '%s "%s": {"what": "%s%s", "world": %d, "nics": %d, "formula": %d, "formula_text": "%s", "exit": %d}\n' \
    "$sep" "$c" "$what" "$( [ -n "$flag" ] && echo ", --oversubscribe")" "$W" "$n" "$f" "$ft" "$rc" >> "$OUT/cases.json"
  sep=","
done
echo "}" >> "$OUT/cases.json"
/usr/bin/python3 "$ROOT/bench/sockets.py" report "$OUT" | tee "$OUT/sockets.md"
