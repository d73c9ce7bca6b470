#!/usr/bin/env bash
# Issue 28's figures for the gloo backend, all through the product and interleaved (the order of the systems turns
# every round), ROUNDS rounds at each W of WORLDS:
#   gloo   `cctk run --backend gloo` (PyTorch's c10d ProcessGroupGloo in the rank, the module in target/gloo)
#   torch  bench/torch_gloo.py: Python torch.distributed on Gloo (the system's python3-torch), timed as cctk times a
#          row (a checked call, then 3 repeats interleaved across the size's cells, each WARMUP warm-ups and a loop of
#          ITERS calls back to back after a barrier, the median loop;
#          no re-timing: Python has no JIT compiler or collector pauses to re-time for), its buffers on page
#          boundaries as cctk's gloo backend's are (--placement page)
#   torch2 the same program on a second PyTorch (TORCH2_PYTHON, when set: a Python whose torch is another version,
#          e.g. a venv with PyTorch's CPU wheel nearer the module's 2.10), so the version gap is measured, not guessed
#   torch-own  the same program with its buffers where PyTorch's allocator puts them (--placement torch: 64 bytes into
#          a page for a large tensor), when TORCH_OWN=1: what a PyTorch job's own tensors get (see bench/README.md)
#   tcp    `cctk run --backend tcp` (cctk's own CPU backend: shared memory between ranks of one host)
# gloo-module.py then prints per cell the median busbw over the rounds, gloo/torch (goal: within +-15 % at 16 and
# 64 MiB) and tcp/gloo, and each system's max/min over the rounds. all_reduce and broadcast compare cctk's in-place
# rows (torch.distributed's form), all_gather and alltoall the out-of-place ones.
#
# usage: bench/gloo-module.sh [ROUNDS]   env: JAR=target/cctk.jar GLOO_DIR=target/gloo OUT=dir WORLDS="2 4"
#                                              SIZES=1MiB,16MiB,64MiB COLLS=all_reduce,all_gather,broadcast,alltoall
#                                              WARMUP=5 ITERS=20 (per timed loop; 3 loops a row)
#                                              TORCH_PYTHON=/usr/bin/python3 TORCH2_PYTHON= (unset: no torch2)
#                                              TORCH_OWN= (1: add torch-own)
# On a shared machine take the lock: flock /tmp/cctk-bench.lock bench/gloo-module.sh 3
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/common.sh"
ROUNDS=${1:-3}
WORLDS=${WORLDS:-"2 4"}
SIZES=${SIZES:-1MiB,16MiB,64MiB}
COLLS=${COLLS:-all_reduce,all_gather,broadcast,alltoall}
WARMUP=${WARMUP:-5} ITERS=${ITERS:-20}
export CCTK_GLOO_DIR=${GLOO_DIR:-$ROOT/target/gloo}
OUT=$(bench_out gloo-module)
bench_jars "$OUT"
[ -f "$CCTK_GLOO_DIR/cctk-gloo.jar" ] || { echo "no gloo module in $CCTK_GLOO_DIR (mvn package)" >&2; exit 2; }
TORCH_PYTHON=${TORCH_PYTHON:-/usr/bin/python3} TORCH2_PYTHON=${TORCH2_PYTHON:-}
torch=$("$TORCH_PYTHON" -c 'import torch; print(torch.__version__)' 2>/dev/null) || {
  echo "no torch in $TORCH_PYTHON (apt-get install python3-torch)" >&2; exit 2; }
systems=(gloo torch tcp)
if [ -n "$TORCH2_PYTHON" ]; then
  torch2=$("$TORCH2_PYTHON" -c 'import torch; print(torch.__version__)' 2>/dev/null) || {
    echo "no torch in TORCH2_PYTHON=$TORCH2_PYTHON" >&2; exit 2; }
  torch="$torch ($TORCH_PYTHON), torch2 $torch2 ($TORCH2_PYTHON)"
  systems=(gloo torch torch2 tcp)
fi
if [ "${TORCH_OWN:-}" = 1 ]; then systems+=(torch-own); fi
bench_crosscore "$OUT"
pagefault=$(bench_pagefault "$OUT")
# GLIBC_TUNABLES, when set, reaches every system alike (e.g. glibc.malloc.hugetlb=1: see bench/README.md)
bench_header "$OUT" "rounds $ROUNDS, W $WORLDS, sizes $SIZES, collectives $COLLS; torch $torch; module $CCTK_GLOO_DIR;\
 warm-up $WARMUP, iterations $ITERS; torch buffers page-aligned as cctk does${TORCH_OWN:+ (torch-own: where the PyTorch allocator puts them)}; GLIBC_TUNABLES=${GLIBC_TUNABLES:-(unset)} for every system;\
 $pagefault"
: > "$OUT/runs.tsv"
for r in $(seq 1 "$ROUNDS"); do
  for w in $WORLDS; do
    order=("${systems[@]}")
    [ $((r % 2)) -eq 0 ] && for ((i = 0; i < ${#systems[@]}; i++)); do order[i]=${systems[${#systems[@]} - 1 - i]}; done
    echo "round $r W=$w $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg): ${order[*]}" | tee -a "$OUT/load.txt"
    for s in "${order[@]}"; do
      dir="$OUT/runs/$s-w$w-r$r" rc=0
      mkdir -p "$dir"
      x0=$(xcore "$OUT")
      t0=$(date +%s.%N)
      case $s in
        gloo|tcp)
          cctk_launch "$JAR" run --backend "$s" --nproc "$w" --oversubscribe --collectives "$COLLS" --sizes "$SIZES" \
            --in-place both --warmup "$WARMUP" --iters "$ITERS" -o "$dir" --quiet > "$dir/run.log" 2>&1 || rc=$? ;;
        torch|torch2|torch-own)
          py=$TORCH_PYTHON placement=page
          [ "$s" = torch2 ] && py=$TORCH2_PYTHON
          [ "$s" = torch-own ] && placement=torch
          "$py" "$ROOT/bench/torch_gloo.py" -w "$w" --sizes "$SIZES" --collectives "$COLLS" --placement "$placement" \
            --warmup "$WARMUP" --iters "$ITERS" --csv "$dir/torch.csv" > "$dir/run.log" 2>&1 || rc=$? ;;
      esac
      [ "$rc" -eq 0 ] || echo "  $s W=$w round $r failed (exit $rc), see $dir/run.log" >&2
      printf '%s\t%s\t%s\t%s\t%s\n' "$r" "$w" "$s" "$rc" "$dir" >> "$OUT/runs.tsv"
      t1=$(date +%s.%N)
      printf '  %-6s %6.1f s  load %s  cross-core 1 MiB round trip %s us before, %s after\n' "$s" \
        "$(awk "BEGIN { print $t1 - $t0 }")" "$(cut -d' ' -f1-3 /proc/loadavg)" "$x0" "$(xcore "$OUT")" \
        | tee -a "$OUT/load.txt"
    done
  done
done
python3 "$ROOT/bench/gloo-module.py" "$OUT" | tee "$OUT/gloo-module.md"
