#!/usr/bin/env bash
# Issue 16's figures: cctk through the product (`java -jar cctk.jar run`) side by side with Gloo (PyTorch's
# torch.distributed, Debian's python3-torch) and with Open MPI's default transports (shared memory on one node), at
# each W of WORLDS, every collective all of them support, interleaved (the order of the systems alternates every
# round) and repeated; peers.py then prints the median busbw of each system, the ratios and the goals:
#   cctk / Gloo >= 2.0 and cctk / Open MPI >= 1.0 in every cell.
# Systems: cctk       `cctk run --nproc W ...` (backend tcp: shared memory when the ranks share a host)
#          cctk-flat  the same sweep from a spec with backend tcp-flat (TCP over loopback between every pair)
#          gloo       $SHARED/bench/gloo_bench.py (its defaults: 1 checked call, 5 warm-ups, 20 timed iterations)
#          mpi        $SHARED/bench/mpi_allreduce.c built with mpicc, run by mpirun with Open MPI's default transports
# Method difference: gloo_bench.py and mpi_allreduce.c time each iteration alone (barrier; t0; op; t1), the product
# times the 20 iterations back to back after one barrier, as nccl-tests does; both report the slowest rank's mean.
#
# usage: bench/vs-peers.sh [ROUNDS]   env: JAR=target/cctk.jar OUT=dir WORLDS="2 4" SIZES=1MiB,16MiB,64MiB
#                                          COLLS=all_reduce,all_gather,reduce_scatter,broadcast,alltoall (cctk names)
#                                          SYSTEMS="cctk cctk-flat gloo mpi" IN_PLACE=false (cctk's layout)
#                                          SHARED=path/to/shared (default: ../shared next to the repo, or next to
#                                          the main checkout of a worktree) GLOO_BENCH=... MPI_SRC=...
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
WARMUP=5 ITERS=20 CHECKS=1   # gloo_bench.py's and mpi_allreduce.c's defaults (checked call, warm-ups, timed)
if [ -z "${SHARED:-}" ]; then
  SHARED=$ROOT/../shared
  [ -d "$SHARED" ] || SHARED=$(dirname "$(git -C "$ROOT" rev-parse --path-format=absolute --git-common-dir)")/../shared
fi
GLOO_BENCH=${GLOO_BENCH:-$SHARED/bench/gloo_bench.py}
MPI_SRC=${MPI_SRC:-$SHARED/bench/mpi_allreduce.c}
MONITOR=$SHARED/bench/monitor.py
OUT=${OUT:-$ROOT/target/bench-results/peers-$(date +%Y%m%d-%H%M%S)}
OUT=$(mkdir -p "$OUT" && cd "$OUT" && pwd)
mkdir -p "$OUT/runs" "$OUT/specs"
[ -f "$SRC_JAR" ] || { echo "no jar at $SRC_JAR (mvn -o -q -DskipTests package, or set JAR)" >&2; exit 2; }

# a copy of the jar (and its class-data archive), so rebuilding the tree during a long run changes nothing measured
cp "$SRC_JAR" "$OUT/cctk.jar"
[ -f "${SRC_JAR%.jar}.jsa" ] && cp "${SRC_JAR%.jar}.jsa" "$OUT/cctk.jsa"
JAR=$OUT/cctk.jar
PEER_SIZES=${SIZES//iB/}                                  # 1MiB -> 1M: the peers' size syntax
PEER_COLLS=$(echo "$COLLS" | sed 's/\balltoall\b/all_to_all/')
LIST_COLLS="[${COLLS//,/, }]" LIST_SIZES="[${SIZES//,/, }]"

why_not=""
for s in $SYSTEMS; do
  case $s in
    gloo) [ -f "$GLOO_BENCH" ] || why_not="$why_not gloo: no $GLOO_BENCH (set SHARED or GLOO_BENCH);" ;;
    mpi)
      if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null; then
        why_not="$why_not mpi: mpicc/mpirun missing (apt-get install -y openmpi-bin libopenmpi-dev);"
      elif [ ! -f "$MPI_SRC" ]; then
        why_not="$why_not mpi: no $MPI_SRC (set SHARED or MPI_SRC);"
      else
        mpicc -O2 -o "$OUT/mpi_allreduce" "$MPI_SRC"
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
# foreign CPU (processes outside this script's tree) every 0.5 s, when the baseline's monitor is there
if [ -f "$MONITOR" ]; then
  /usr/bin/python3 "$MONITOR" $$ "$OUT/interference.tsv" 0.5 &
fi

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
      /usr/bin/python3 "$GLOO_BENCH" -w "$w" --sizes "$PEER_SIZES" --collectives "$PEER_COLLS" \
        --csv "$dir/gloo.csv" > "$dir/run.log" 2>&1 || rc=$? ;;
    mpi)
      $MPIRUN -np "$w" "$OUT/mpi_allreduce" -s "$PEER_SIZES" -l "$PEER_COLLS" -c "$dir/mpi.csv" \
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
    gloo) [ -f "$GLOO_BENCH" ] && order+=("$s") ;;
    mpi) [ -x "$OUT/mpi_allreduce" ] && order+=("$s") ;;
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
