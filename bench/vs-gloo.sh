#!/usr/bin/env bash
# Measures cctk's tcp backend against Gloo (PyTorch torch.distributed over loopback) side by side on this host:
# same collectives, sizes and W, same method (gloo_bench.py's: barrier; t0; op; t1; max over ranks of the mean),
# runs interleaved (the order alternates every round) and repeated; then prints median busbw per system and the
# cctk/Gloo ratio. Gloo has no reduce_scatter, so reduce_scatter is compared with Open MPI over TCP (btl tcp,self)
# when mpicc/mpirun are installed.
#
# usage: bench/vs-gloo.sh [ROUNDS]     env: SIZES=1M,16M,64M,256M WORLDS="2 4" COLLS=... OUT=dir
#                                           SHARED=path/to/shared (default: ../shared next to the repo, or next to
#                                           the main checkout of a worktree) GLOO_BENCH=$SHARED/bench/gloo_bench.py
#                                           MPI_SRC=$SHARED/bench/mpi_allreduce.c
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${1:-3}
SIZES=${SIZES:-1M,16M,64M,256M}
WORLDS=${WORLDS:-"2 4"}
COLLS=${COLLS:-all_reduce,all_gather,reduce_scatter,broadcast,all_to_all}
if [ -z "${SHARED:-}" ]; then
  SHARED=$ROOT/../shared
  [ -d "$SHARED" ] || SHARED=$(dirname "$(git -C "$ROOT" rev-parse --path-format=absolute --git-common-dir)")/../shared
fi
GLOO_BENCH=${GLOO_BENCH:-$SHARED/bench/gloo_bench.py}
[ -f "$GLOO_BENCH" ] || { echo "no Gloo benchmark at $GLOO_BENCH (set SHARED or GLOO_BENCH)" >&2; exit 2; }
MPI_SRC=${MPI_SRC:-$(dirname "$GLOO_BENCH")/mpi_allreduce.c}
OUT=${OUT:-$ROOT/target/bench-results/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"

(cd "$ROOT" && mvn -o -q test-compile)
# a snapshot of the compiled classes, so rebuilding the tree during a long run does not change what is measured
cp -r "$ROOT/target/classes" "$OUT/classes" && cp -r "$ROOT/target/test-classes" "$OUT/test-classes"
CP="$OUT/classes:$OUT/test-classes"  # the bench main needs nothing beyond the JDK

MPI=""
if command -v mpicc >/dev/null && command -v mpirun >/dev/null && [ -f "$MPI_SRC" ]; then
  mpicc -O2 -o "$OUT/mpi_allreduce" "$MPI_SRC"
  MPI="mpirun --allow-run-as-root --oversubscribe --mca btl tcp,self --mca btl_tcp_if_include lo"
  MPI="$MPI --mca oob_tcp_if_include lo"
fi

run_gloo() {
  /usr/bin/python3 "$GLOO_BENCH" -w "$1" --sizes "$SIZES" --collectives "$COLLS" --csv "$OUT/gloo_w$1_r$2.csv" \
    > "$OUT/gloo_w$1_r$2.txt" 2>&1
}
run_cctk() {
  java -cp "$CP" cctk.comm.tcp.TcpBench -w "$1" --sizes "$SIZES" --collectives "$COLLS" \
    --csv "$OUT/cctk_w$1_r$2.csv" > "$OUT/cctk_w$1_r$2.txt" 2>&1
}
run_mpi() {
  [ -n "$MPI" ] || return 0
  $MPI -np "$1" "$OUT/mpi_allreduce" -s "$SIZES" -l reduce_scatter -c "$OUT/mpi_w$1_r$2.csv" \
    > "$OUT/mpi_w$1_r$2.txt" 2>&1
}

for r in $(seq 1 "$ROUNDS"); do
  for w in $WORLDS; do
    echo "round $r W=$w $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$OUT/load.txt"
    if [ $((r % 2)) -eq 1 ]; then
      run_gloo "$w" "$r"; run_cctk "$w" "$r"; run_mpi "$w" "$r"
    else
      run_mpi "$w" "$r"; run_cctk "$w" "$r"; run_gloo "$w" "$r"
    fi
  done
done
python3 "$ROOT/bench/ratios.py" "$OUT" | tee "$OUT/ratios.md"
