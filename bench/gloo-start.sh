#!/usr/bin/env bash
# Issue 28's costs of the gloo backend, through the product: what it adds to disk, what a run's start costs with and
# without it (the same one-row run with backend tcp and backend gloo, alternating, ROUNDS each, the native-library
# cache already filled), and the first start with an empty cache: 4 ranks at once, TRIES times, each with a fresh
# CCTK_JAVACPP_CACHE, counting the runs that crashed or failed.
#
# With OLD_JAR (a jar from before the gloo backend), its tcp run is timed in the same rounds: a run that does not
# ask for gloo starts as fast as before.
# usage: bench/gloo-start.sh [ROUNDS] [TRIES]   env: JAR=target/cctk.jar GLOO_DIR=target/gloo OUT=dir OLD_JAR=
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/common.sh"
ROUNDS=${1:-3}
TRIES=${2:-10}
export CCTK_GLOO_DIR=${GLOO_DIR:-$ROOT/target/gloo}
OUT=$(bench_out gloo-start)
bench_jars "$OUT"
bench_header "$OUT" "rounds $ROUNDS, first-start tries $TRIES; module $CCTK_GLOO_DIR"
{
  echo "cctk.jar: $(stat -c %s "$JAR") bytes"
  echo "gloo module: $(du -sb "$CCTK_GLOO_DIR" | cut -f1) bytes ($(ls "$CCTK_GLOO_DIR/lib" | tr '\n' ' '))"
  echo "system libtorch: $(ls /usr/lib/x86_64-linux-gnu/libtorch_cpu.so* 2>/dev/null | tr '\n' ' ' || true)"
} | tee -a "$OUT/start.txt"
one() {  # backend dir: one row, one timed call (JAR_USED: the jar)
  cctk_launch "${JAR_USED:-$JAR}" run --backend "$1" --nproc "${W:-2}" --oversubscribe --collectives all_reduce --sizes 4KiB \
    --in-place false --warmup 0 --iters 1 --repeats 1 -o "$2" --quiet > "$2/run.log" 2>&1
}
warm=$(mktemp -d)
CCTK_JAVACPP_CACHE=$warm one gloo "$(mkdir -p "$OUT/runs/fill" && echo "$OUT/runs/fill")" || true
for r in $(seq 1 "$ROUNDS"); do
  for b in tcp gloo ${OLD:+tcp-old}; do
    dir="$OUT/runs/$b-r$r" && mkdir -p "$dir"
    t0=$(date +%s.%N)
    rc=0
    if [ "$b" = tcp-old ]; then
      JAR_USED=$OLD CCTK_JAVACPP_CACHE=$warm one tcp "$dir" || rc=$?
    else
      CCTK_JAVACPP_CACHE=$warm one "$b" "$dir" || rc=$?
    fi
    printf 'start %-7s round %s: %5.2f s wall (exit %s)\n' "$b" "$r" "$(awk "BEGIN { print $(date +%s.%N) - $t0 }")" \
      "$rc" | tee -a "$OUT/start.txt"
  done
done
echo "native-library cache after a gloo run: $(du -sb "$warm" | cut -f1) bytes" | tee -a "$OUT/start.txt"
rm -rf "$warm"
bad=0
for t in $(seq 1 "$TRIES"); do
  cache=$(mktemp -d)
  dir="$OUT/runs/first-$t" && mkdir -p "$dir"
  t0=$(date +%s.%N)
  rc=0
  CCTK_JAVACPP_CACHE=$cache W=4 one gloo "$dir" || rc=$?
  crash=$(grep -cE "SIGSEGV|SIGABRT|fatal error|hs_err" "$dir/run.log" || true)
  [ "$rc" -eq 0 ] && [ "$crash" -eq 0 ] || bad=$((bad + 1))
  printf 'first start %2s: 4 ranks, empty cache: %5.1f s, exit %s%s\n' "$t" \
    "$(awk "BEGIN { print $(date +%s.%N) - $t0 }")" "$rc" "$([ "$crash" -eq 0 ] || echo ', CRASHED')" \
    | tee -a "$OUT/start.txt"
  rm -rf "$cache"
done
echo "first starts that crashed or failed: $bad of $TRIES" | tee -a "$OUT/start.txt"
