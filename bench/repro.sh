#!/usr/bin/env bash
# Issue 22's reproducibility figure: the same sweep run back to back ROUNDS times through the product (`cctk run`,
# its default settings: repeats, re-timing, JIT warm-up), at each W of WORLDS, and Open MPI's default transports
# (shared memory) on the same cells in the same rounds; repro.py then prints, per system and W, the per-cell
# max/min of busbw over the rounds: its median and worst over the cells (goal for cctk: median <= 1.10, worst <= 1.5).
# Systems: cctk      `cctk run --nproc W ...` with the jar under test (JAR)
#          cctk-old  the same command with another jar (OLD_JAR, e.g. an older commit's build), when set
#          mpi       bench/mpi_peer.c (this repository's MPI peer, built with mpicc), one mpirun per round, given
#                    cctk's treatment: a checked call, 5 warm-ups, 3 loops of 20 calls back to back after a barrier,
#                    the slowest rank's mean per loop, the median loop (no re-timing: native code has no JIT or GC)
#          mpi3      the same program run three times per round, the median of the three per cell (whole runs
#                    repeated, as cctk-old/cctk runs are across rounds)
#          zc        bench/zc_peer.c: cctk's own shared-memory algorithms in C (the same copies and reductions, the
#                    same handoffs and waiting), given the same treatment as mpi: what the machine itself allows
#                    when nothing of cctk's runtime (JVM, JIT, collector, harness) takes part
# The systems run one after the other in each round, in reverse order every other round.
#
# usage: bench/repro.sh [ROUNDS]   env: JAR=target/cctk.jar OLD_JAR= OUT=dir WORLDS="2 4" SIZES=1MiB,16MiB,64MiB
#                                       COLLS=all_reduce,all_gather,reduce_scatter,broadcast,alltoall
#                                       SYSTEMS="cctk cctk-old mpi mpi3 zc" CCTK_ARGS= (extra flags for cctk run)
# On a shared machine take the lock: flock /tmp/cctk-bench.lock bench/repro.sh 3
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/common.sh"
ROUNDS=${1:-3}
WORLDS=${WORLDS:-"2 4"}
SIZES=${SIZES:-1MiB,16MiB,64MiB}
COLLS=${COLLS:-all_reduce,all_gather,reduce_scatter,broadcast,alltoall}
SYSTEMS=${SYSTEMS:-"cctk cctk-old mpi mpi3 zc"}
OUT=$(bench_out repro)
bench_jars "$OUT"
PEER_SIZES=${SIZES//iB/}
PEER_COLLS=$(echo "$COLLS" | sed 's/\balltoall\b/all_to_all/')
bench_mpi "$OUT"
bench_zc "$OUT"
bench_crosscore "$OUT"
bench_header "$OUT" "rounds $ROUNDS, W $WORLDS, sizes $SIZES, collectives $COLLS, systems $SYSTEMS"

run_one() {  # system W round
  local sys=$1 w=$2 r=$3 dir="$OUT/runs/$1-w$2-r$3" rc=0 t0 t1 k x0 x1
  rm -rf "$dir" && mkdir -p "$dir"
  x0=$(xcore "$OUT")
  t0=$(date +%s.%N)
  case $sys in
    cctk|cctk-old)
      local jar=$JAR
      [ "$sys" = cctk-old ] && jar=$OLD
      # shellcheck disable=SC2086
      cctk_launch "$jar" run --nproc "$w" --collectives "$COLLS" --sizes "$SIZES" --in-place false -o "$dir" \
        --quiet ${CCTK_ARGS:-} > "$dir/run.log" 2>&1 || rc=$? ;;
    mpi)
      $MPIRUN -np "$w" "$OUT/mpi_peer" -s "$PEER_SIZES" -l "$PEER_COLLS" -c "$dir/mpi.csv" \
        > "$dir/run.log" 2>&1 || rc=$? ;;
    zc)
      "$OUT/zc_peer" -w "$w" -s "$PEER_SIZES" -l "$COLLS" -c "$dir/zc.csv" > "$dir/run.log" 2>&1 || rc=$? ;;
    mpi3)
      for k in 1 2 3; do
        $MPIRUN -np "$w" "$OUT/mpi_peer" -s "$PEER_SIZES" -l "$PEER_COLLS" -c "$dir/mpi-$k.csv" \
          >> "$dir/run.log" 2>&1 || rc=$?
      done ;;
  esac
  t1=$(date +%s.%N)
  x1=$(xcore "$OUT")
  printf '%s\t%s\t%s\t%s\t%s\n' "$r" "$w" "$sys" "$x0" "$x1" >> "$OUT/xcore.tsv"
  [ "$rc" -eq 0 ] || echo "  $sys W=$w round $r failed (exit $rc), see $dir/run.log" >&2
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$w" "$sys" "$t0" "$t1" "$rc" "$dir" >> "$OUT/runs.tsv"
  printf '  %-9s %6.1f s  load %s  cross-core 1 MiB round trip %s us before, %s after\n' "$sys" \
    "$(awk "BEGIN { print $t1 - $t0 }")" "$(cut -d' ' -f1-3 /proc/loadavg)" "$x0" "$x1" \
    | tee -a "$OUT/load.txt"
}

order=()
for s in $SYSTEMS; do
  case $s in
    cctk-old) [ -n "$OLD" ] && order+=("$s") ;;
    mpi|mpi3) [ -x "$OUT/mpi_peer" ] && order+=("$s") ;;
    zc) [ -x "$OUT/zc_peer" ] && order+=("$s") ;;
    *) order+=("$s") ;;
  esac
done
: > "$OUT/runs.tsv"
: > "$OUT/xcore.tsv"
for r in $(seq 1 "$ROUNDS"); do
  for w in $WORLDS; do
    seq_=("${order[@]}")
    if [ $((r % 2)) -eq 0 ]; then
      seq_=()
      for ((i = ${#order[@]} - 1; i >= 0; i--)); do seq_+=("${order[i]}"); done
    fi
    echo "round $r W=$w $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg): ${seq_[*]}" | tee -a "$OUT/load.txt"
    for s in "${seq_[@]}"; do run_one "$s" "$w" "$r"; done
  done
done
echo "end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/load.txt"
python3 "$ROOT/bench/repro.py" "$OUT" | tee "$OUT/repro.md"
