#!/usr/bin/env bash
# Issue 16's figures: cctk through the product (`java -jar cctk.jar run`) side by side with Gloo (PyTorch's
# torch.distributed, Debian's python3-torch) and with Open MPI's default transports (shared memory on one node), at
# each W of WORLDS, every collective all of them support, interleaved (the order of the systems alternates every
# round) and repeated; peers.py then prints the median busbw of each system, the ratios and the goals:
#   cctk / Gloo >= 2.0 and cctk / Open MPI >= 1.0 in every cell.
# Systems: cctk       `cctk run --nproc W ...` (backend tcp: shared memory when the ranks share a host)
#          cctk-flat  the same sweep from a spec with backend tcp-flat (TCP over loopback between every pair)
#          gloo       bench/torch_gloo.py --format peers: Python torch.distributed on Gloo (the system's python3-torch)
#          mpi        bench/mpi_peer.c built with mpicc, run by mpirun with Open MPI's default transports
# All four get the same treatment: a checked call, 5 warm-ups, then 3 loops of 20 calls back to back after a barrier,
# the slowest rank's mean per call in each loop, the median loop. cctk also re-times a loop its JIT compiler or
# collector disturbed and warms its JIT before timing; the peers have neither to deal with (native code, or native
# code under Python), so they re-time nothing. cctk checks its results after timing (--check-iters 1), the peers
# before. Both peer programs are this repository's own (bench/); nothing outside it is needed.
# While the rounds run, bench/monitor.py samples the CPU used by processes outside this script every 0.5 s
# (OUT/interference.tsv), and peers.py prints it per system.
#
# usage: bench/vs-peers.sh [ROUNDS]   env: JAR=target/cctk.jar OUT=dir WORLDS="2 4" SIZES=1MiB,16MiB,64MiB
#                                          COLLS=all_reduce,all_gather,reduce_scatter,broadcast,alltoall (cctk names)
#                                          SYSTEMS="cctk cctk-flat gloo mpi" IN_PLACE=false (cctk's layout)
# On a shared machine take the lock: flock /tmp/cctk-bench.lock bench/vs-peers.sh 3
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${1:-3}
SRC_JAR=${JAR:-$ROOT/target/cctk.jar}
WORLDS=${WORLDS:-"2 4"}
SIZES=${SIZES:-1MiB,16MiB,64MiB}
COLLS=${COLLS:-all_reduce,all_gather,reduce_scatter,broadcast,alltoall}
SYSTEMS=${SYSTEMS:-"cctk cctk-flat gloo mpi"}
IN_PLACE=${IN_PLACE:-false}
WARMUP=5 ITERS=20 CHECKS=1   # every system's: warm-ups, calls per timed loop (3 loops), checked calls
GLOO_PEER=$ROOT/bench/torch_gloo.py
MPI_SRC=$ROOT/bench/mpi_peer.c
MONITOR=$ROOT/bench/monitor.py
OUT=${OUT:-$ROOT/target/bench-results/peers-$(date +%Y%m%d-%H%M%S)}
OUT=$(mkdir -p "$OUT" && cd "$OUT" && pwd)
mkdir -p "$OUT/runs" "$OUT/specs"
[ -f "$SRC_JAR" ] || { echo "no jar at $SRC_JAR (mvn -o -q -DskipTests package, or set JAR)" >&2; exit 2; }

# a copy of the jar (and its class-data archive), so rebuilding the tree during a long run changes nothing measured
cp "$SRC_JAR" "$OUT/cctk.jar"
[ -f "${SRC_JAR%.jar}.jsa" ] && cp "${SRC_JAR%.jar}.jsa" "$OUT/cctk.jsa"
JAR=$OUT/cctk.jar
LIST_COLLS="[${COLLS//,/, }]" LIST_SIZES="[${SIZES//,/, }]"

why_not=""
for s in $SYSTEMS; do
  case $s in
    gloo) /usr/bin/python3 -c 'import torch.distributed' 2>/dev/null \
            || why_not="$why_not gloo: no torch.distributed in /usr/bin/python3 (apt-get install -y python3-torch);" ;;
    mpi)
      if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null; then
        why_not="$why_not mpi: mpicc/mpirun missing (apt-get install -y openmpi-bin libopenmpi-dev);"
      else
        mpicc -O2 -o "$OUT/mpi_peer" "$MPI_SRC"
      fi ;;
  esac
done
[ -z "$why_not" ] || echo "not measured:$why_not" | tee "$OUT/not-measured.txt" >&2
MPIRUN="mpirun --allow-run-as-root --oversubscribe --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo"

{
  echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(nproc) CPUs; jar $SRC_JAR ($(sha256sum "$JAR" | cut -c1-12)," \
       "commit $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- src pom.xml || echo ' + changes'))"
  echo "# java: $(java -version 2>&1 | head -1); torch: $(/usr/bin/python3 -c 'import torch; print(torch.__version__)' 2>/dev/null || echo none);" \
       "mpi: $(mpirun --version 2>/dev/null | head -1 || echo none)"
  echo "# rounds $ROUNDS, W $WORLDS, sizes $SIZES, collectives $COLLS, systems $SYSTEMS, cctk in_place $IN_PLACE"
} | tee "$OUT/load.txt"
# foreign CPU (processes outside this script's tree) every 0.5 s; it ends when this script does
/usr/bin/python3 "$MONITOR" $$ "$OUT/interference.tsv" 0.5 &

flat_spec() {  # W dir -> the spec of the flags' sweep, with backend tcp-flat
  cat > "$OUT/specs/flat-w$1.yaml" <<EOF
job:
  name: vs-peers-flat-w$1
  output_dir: $2
resources:
  nodes: 1
  tasks_per_node: $1
benchmark:
  backends: [tcp-flat]
  tasks: [$1]
  collectives: $LIST_COLLS
  sizes: $LIST_SIZES
  dtypes: [float32]
  ops: [sum]
  warmup: $WARMUP
  iters: $ITERS
  check_iters: $CHECKS
  in_place: $IN_PLACE
EOF
}

run_one() {  # system W round
  local sys=$1 w=$2 r=$3 dir="$OUT/runs/$1-w$2-r$3" rc=0 t0 t1
  rm -rf "$dir" && mkdir -p "$dir"
  t0=$(date +%s.%N)
  case $sys in
    cctk)
      java -jar "$JAR" run --nproc "$w" --collectives "$COLLS" --sizes "$SIZES" --dtypes float32 --ops sum \
        --in-place "$IN_PLACE" --warmup "$WARMUP" --iters "$ITERS" --check-iters "$CHECKS" -o "$dir" --quiet \
        > "$dir/run.log" 2>&1 || rc=$? ;;
    cctk-flat)
      flat_spec "$w" "$dir"
      java -jar "$JAR" run "$OUT/specs/flat-w$w.yaml" --quiet > "$dir/run.log" 2>&1 || rc=$? ;;
    gloo)
      /usr/bin/python3 "$GLOO_PEER" -w "$w" --sizes "$SIZES" --collectives "$COLLS" --warmup "$WARMUP" \
        --iters "$ITERS" --repeats 3 --format peers --csv "$dir/gloo.csv" > "$dir/run.log" 2>&1 || rc=$? ;;
    mpi)
      $MPIRUN -np "$w" "$OUT/mpi_peer" -s "$SIZES" -l "$COLLS" -W "$WARMUP" -n "$ITERS" -r 3 -c "$dir/mpi.csv" \
        > "$dir/run.log" 2>&1 || rc=$? ;;
  esac
  t1=$(date +%s.%N)
  [ "$rc" -eq 0 ] || echo "  $sys W=$w round $r failed (exit $rc), see $dir/run.log" >&2
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$w" "$sys" "$t0" "$t1" "$rc" "$dir" >> "$OUT/runs.tsv"
  printf '  %-9s %6.1f s  load %s\n' "$sys" "$(awk "BEGIN { print $t1 - $t0 }")" "$(cut -d' ' -f1-3 /proc/loadavg)" \
    | tee -a "$OUT/load.txt"
}

order=()
for s in $SYSTEMS; do
  case $s in
    gloo) case $why_not in *" gloo:"*) ;; *) order+=("$s") ;; esac ;;
    mpi) [ -x "$OUT/mpi_peer" ] && order+=("$s") ;;
    *) order+=("$s") ;;
  esac
done
: > "$OUT/runs.tsv"
for r in $(seq 1 "$ROUNDS"); do
  for w in $WORLDS; do
    seq_=("${order[@]}")
    if [ $((r % 2)) -eq 0 ]; then  # even rounds run the systems in reverse order
      seq_=()
      for ((i = ${#order[@]} - 1; i >= 0; i--)); do seq_+=("${order[i]}"); done
    fi
    echo "round $r W=$w $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg): ${seq_[*]}" | tee -a "$OUT/load.txt"
    for s in "${seq_[@]}"; do run_one "$s" "$w" "$r"; done
  done
done
echo "end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/load.txt"
/usr/bin/python3 "$ROOT/bench/peers.py" "$OUT" | tee "$OUT/ratios.md"
