#!/usr/bin/env bash
# Measures cctk's tcp backend (its inner class TcpBench) against Gloo (PyTorch torch.distributed over loopback) side by
# side on this host: same collectives, sizes and W, same method (TcpBench's: a barrier before each call, each call
# timed alone, the slowest rank's mean), runs interleaved (the order alternates every round) and repeated; then prints
# median busbw per system and the cctk/Gloo ratio. Gloo is bench/torch_gloo.py --each --repeats 1 (5 warm-ups and
# 20 calls, each "barrier; t0; call; t1", as TcpBench does; its checked call comes first). Gloo has no reduce_scatter,
# so reduce_scatter is compared with Open MPI over TCP (btl tcp,self), bench/mpi_peer.c -e -r 1 (the same method),
# when mpicc/mpirun are installed. Both peers are this repository's own programs.
#
# usage: bench/vs-gloo.sh [ROUNDS]     env: SIZES=1M,16M,64M,256M WORLDS="2 4" COLLS=... OUT=dir
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${1:-3}
SIZES=${SIZES:-1M,16M,64M,256M}
WORLDS=${WORLDS:-"2 4"}
COLLS=${COLLS:-all_reduce,all_gather,reduce_scatter,broadcast,all_to_all}
GLOO_PEER=$ROOT/bench/torch_gloo.py
MPI_SRC=$ROOT/bench/mpi_peer.c
OUT=${OUT:-$ROOT/target/bench-results/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"

(cd "$ROOT" && mvn -o -q test-compile)
# a snapshot of the compiled classes, so rebuilding the tree during a long run does not change what is measured
cp -r "$ROOT/target/classes" "$OUT/classes" && cp -r "$ROOT/target/test-classes" "$OUT/test-classes"
CP="$OUT/classes:$OUT/test-classes"  # the bench main needs nothing beyond the JDK

MPI=""
if command -v mpicc >/dev/null && command -v mpirun >/dev/null; then
  mpicc -O2 -o "$OUT/mpi_peer" "$MPI_SRC"
  MPI="mpirun --allow-run-as-root --oversubscribe --mca btl tcp,self --mca btl_tcp_if_include lo"
  MPI="$MPI --mca oob_tcp_if_include lo"
fi

run_gloo() {
  /usr/bin/python3 "$GLOO_PEER" -w "$1" --sizes "$SIZES" --collectives "$COLLS" --warmup 5 --iters 20 --repeats 1 \
    --each --format peers --csv "$OUT/gloo_w$1_r$2.csv" > "$OUT/gloo_w$1_r$2.txt" 2>&1
}
run_cctk() {
  java -cp "$CP" cctk.comm.tcp.TcpBench -w "$1" --sizes "$SIZES" --collectives "$COLLS" \
    --csv "$OUT/cctk_w$1_r$2.csv" > "$OUT/cctk_w$1_r$2.txt" 2>&1
}
run_mpi() {
  [ -n "$MPI" ] || return 0
  $MPI -np "$1" "$OUT/mpi_peer" -s "$SIZES" -l reduce_scatter -W 5 -n 20 -r 1 -e -c "$OUT/mpi_w$1_r$2.csv" \
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
