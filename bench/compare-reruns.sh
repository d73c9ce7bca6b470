#!/usr/bin/env bash
# Issue 22's compare figures, through the product (`cctk run`, `cctk compare`), default settings:
#  1. reruns: 2 x PAIRS back-to-back runs of one sweep; `cctk compare` of each pair (run 2k-1 as BASE, 2k as NEW)
#     must call no cell changed and exit 0;
#  2. a real slowdown: REPS runs as BASE, then REPS runs with every rank on one core (`taskset -c 0`) as NEW, each
#     side a directory of repeated runs; `cctk compare BASE NEW` must exit 1 and name the regression.
# The sweep: W = 2 and 4, all_reduce and all_gather, 1 and 4 MiB, out of place and in place (16 cells). Before and
# after every run the machine's cross-core round trip of 1 MiB is probed (bench/crosscore.c) and logged with the load;
# each run's own readings (rank 0, before its warm-up and after its sweep) are in its files, and compare's whole line
# (recorded beside each verdict) says when the two sides' readings lie more than 2x apart.
#
# usage: bench/compare-reruns.sh   env: JAR=target/cctk.jar OUT=dir PAIRS=4 REPS=3 CCTK_ARGS= (extra run flags)
# On a shared machine take the lock: flock /tmp/cctk-bench.lock bench/compare-reruns.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/common.sh"
PAIRS=${PAIRS:-4}
REPS=${REPS:-3}
OUT=$(bench_out compare)
bench_jars "$OUT"
OLD=""
bench_crosscore "$OUT"
bench_header "$OUT" "pairs $PAIRS, slowdown repeats $REPS; W 2,4; all_reduce, all_gather; 1 and 4 MiB; both layouts"

sweep() {  # DIR [taskset prefix...]
  local dir=$1 x0
  shift
  mkdir -p "$dir"
  x0=$(xcore "$OUT")
  # shellcheck disable=SC2086
  "$@" java -XX:SharedArchiveFile="${JAR%.jar}.jsa" -Xshare:auto -Xlog:cds=off -Xlog:cds+dynamic=off \
    -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$JAR" run --nproc 2,4 --collectives all_reduce,all_gather \
    --sizes 1MiB,4MiB -o "$dir" --quiet ${CCTK_ARGS:-} > "$dir/run.log" 2>&1
  echo "  ran $(basename "$dir") $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" \
    "cross-core 1 MiB round trip $x0 us before, $(xcore "$OUT") after" | tee -a "$OUT/load.txt"
}

compare() {  # NAME BASE NEW -> prints the verdict line, records exit code and changed cells
  local rc=0
  cctk_launch "$JAR" compare "$2" "$3" > "$OUT/$1.txt" 2>&1 || rc=$?
  local changed
  changed=$(grep -cE 'REGRESSED|IMPROVED' "$OUT/$1.txt" || true)
  printf '%s\texit %s\t%s cells flagged REGRESSED/IMPROVED\t%s\t%s\n' "$1" "$rc" "$changed" \
    "$(grep -E '^cctk: [0-9]+ compared' "$OUT/$1.txt" | head -1)" \
    "$(grep -E '^cctk: whole: ' "$OUT/$1.txt" | head -1)" | tee -a "$OUT/verdicts.tsv"
}

: > "$OUT/verdicts.tsv"
echo "== reruns" | tee -a "$OUT/load.txt"
for k in $(seq 1 "$PAIRS"); do
  sweep "$OUT/runs/pair$k-a"
  sweep "$OUT/runs/pair$k-b"
  compare "pair$k" "$OUT/runs/pair$k-a" "$OUT/runs/pair$k-b"
done
echo "== slowdown" | tee -a "$OUT/load.txt"
for k in $(seq 1 "$REPS"); do
  sweep "$OUT/runs/base/r$k"
done
for k in $(seq 1 "$REPS"); do
  sweep "$OUT/runs/slow/r$k" taskset -c 0
done
compare "slowdown" "$OUT/runs/base" "$OUT/runs/slow"
echo
echo "# goals: every pair exit 0 with 0 cells changed; slowdown exit 1, the regression named"
awk -F'\t' '/^pair/ { n++; if ($2 == "exit 0" && $3 ~ /^0 cells/) ok++; if ($5 ~ /the machine changed: a 1 MiB/) m++ }
  END { printf "reruns: %d of %d pairs met; %d called the machine changed by its cross-core readings\n", ok, n, m }' \
  "$OUT/verdicts.tsv"
grep '^slowdown' "$OUT/verdicts.tsv" | awk -F'\t' '{ print "slowdown: " ($2 == "exit 1" ? "met" : "MISSED") " (" $2 ")" }'
