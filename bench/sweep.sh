#!/usr/bin/env bash
# Issue 15's four figures, measured through the product (java -jar JAR ...), repeated, and printed against their
# goals by sweep.py:
#   efficiency  wall time of `cctk run` over the time inside collectives (sum over the CSV's rows of time_us x
#               (warm-up + timed + check iterations)); W=2 and W=4, tcp, every collective, 4 B to 64 MiB by x4,
#               warm-up 5, iters 20, check 1, both layouts. Goal <= 1.25.
#   fillcheck   fill + poison + check GB/s per rank that a run records (JSON summary.fill_check), 64 MiB, W=2,
#               all_reduce and all_gather, float32 and bfloat16. Goal >= 2. A jar that records none prints n/a.
#   memory      peak RSS of the largest process of `cctk run` (a rank), sweeps 1 MiB .. 64 MiB and .. 256 MiB by x4,
#               W=2, every collective, both layouts, warm-up 1, iters 2, check 1. Goal <= 3 x largest + 150 MiB.
#   startup     `java -jar JAR demo allreduce --nproc 2` against torch+Gloo doing the same
#               (bench/torch_hello.py 2: import torch, 2 processes join a Gloo group, all-reduce, check, leave;
#               this repository's own), interleaved, median of STARTS. Goal <= 0.55 s and <= 1/5 of torch.
# Peak RSS is ru_maxrss of `cctk run` from GNU time: Linux reports the largest single process of the tree there.
#
# usage: bench/sweep.sh [ROUNDS]    env: JAR=target/cctk.jar OUT=dir WHAT="efficiency fillcheck memory startup"
#                                        WORLDS="2 4" STARTS=5 FIRST_ROUND=1
# Runs append to OUT, so two jars can be interleaved round by round, each into its own OUT:
#   for r in 1 2 3; do JAR=/tmp/before/target/cctk.jar OUT=b FIRST_ROUND=$r bench/sweep.sh 1
#                      JAR=target/cctk.jar OUT=a FIRST_ROUND=$r bench/sweep.sh 1; done
# On a shared machine take the lock and look at the load first: flock /tmp/cctk-bench.lock bench/sweep.sh 3
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${1:-3}
JAR=$(cd "$(dirname "${JAR:-$ROOT/target/cctk.jar}")" && pwd)/$(basename "${JAR:-cctk.jar}")
WHAT=${WHAT:-"efficiency fillcheck memory startup"}
WORLDS=${WORLDS:-"2 4"}
STARTS=${STARTS:-5}
TORCH_HELLO=$ROOT/bench/torch_hello.py
HAVE_TORCH=$(/usr/bin/python3 -c 'import torch.distributed; print(1)' 2>/dev/null || true)  # none: cctk alone
OUT=${OUT:-$ROOT/target/bench-results/sweep-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT/specs"
[ -f "$JAR" ] || { echo "no jar at $JAR (mvn -o -q -DskipTests package, or set JAR)" >&2; exit 2; }
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "GNU time (/usr/bin/time) is needed for wall time and peak RSS" >&2; exit 2; }

spec() {  # name world collectives sizes warmup iters check in_place dtype
  cat > "$OUT/specs/$1.yaml" <<EOF
job:
  name: $1
  output_dir: $OUT/results/$1
resources:
  nodes: 1
  tasks_per_node: 4
benchmark:
  backends: [tcp]
  tasks: [$2]
  collectives: $3
  sizes: $4
  dtypes: [$9]
  ops: [sum]
  warmup: $5
  iters: $6
  check_iters: $7
  in_place: $8
EOF
}
for w in $WORLDS; do
  spec "eff-w$w" "$w" all "{min: 4B, max: 64MiB, factor: 4}" 5 20 1 both float32
done
spec mem-64 2 all "{min: 1MiB, max: 64MiB, factor: 4}" 1 2 1 both float32
spec mem-256 2 all "{min: 1MiB, max: 256MiB, factor: 4}" 1 2 1 both float32
for t in float32 bfloat16; do
  spec "fc-$t" 2 "[all_reduce, all_gather]" "[64MiB]" 1 1 3 false "$t"
done

# one line per measurement: round what name wall_s maxrss_kb result_dir
measure() {  # round what name
  local dir="$OUT/results/$3"
  rm -rf "$dir"
  "$TIME" -f "%e %M" -o "$OUT/time.tmp" java -jar "$JAR" run "$OUT/specs/$3.yaml" > "$OUT/$3-r$1.log" 2>&1 \
    || echo "cctk run $3 failed (round $1), see $OUT/$3-r$1.log" >&2
  mkdir -p "$OUT/keep/$3-r$1" && cp "$dir"/* "$OUT/keep/$3-r$1/" 2>/dev/null || true
  echo "$1 $2 $3 $(cat "$OUT/time.tmp" | tail -1) $OUT/keep/$3-r$1" >> "$OUT/runs.txt"
}
startup() {  # round
  for i in $(seq 1 "$STARTS"); do
    "$TIME" -f "%e" -o "$OUT/time.tmp" java -jar "$JAR" demo allreduce --nproc 2 > "$OUT/demo.log" 2>&1 \
      || echo "cctk demo failed, see $OUT/demo.log" >&2
    echo "$1 startup cctk $(tail -1 "$OUT/time.tmp")" >> "$OUT/starts.txt"
    if [ -n "$HAVE_TORCH" ]; then
      "$TIME" -f "%e" -o "$OUT/time.tmp" /usr/bin/python3 "$TORCH_HELLO" 2 > "$OUT/torch.log" 2>&1 \
        || echo "torch_hello failed, see $OUT/torch.log" >&2
      echo "$1 startup torch $(tail -1 "$OUT/time.tmp")" >> "$OUT/starts.txt"
    fi
  done
}

FIRST_ROUND=${FIRST_ROUND:-1}
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) jar $JAR ($(sha256sum "$JAR" | cut -c1-12)) on $(nproc) CPUs" | tee -a "$OUT/load.txt"
for r in $(seq "$FIRST_ROUND" $((FIRST_ROUND + ROUNDS - 1))); do
  echo "round $r $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/load.txt"
  for what in $WHAT; do
    case $what in
      efficiency) for w in $WORLDS; do measure "$r" efficiency "eff-w$w"; done ;;
      memory) measure "$r" memory mem-64; measure "$r" memory mem-256 ;;
      fillcheck) measure "$r" fillcheck fc-float32; measure "$r" fillcheck fc-bfloat16 ;;
      startup) startup "$r" ;;
    esac
  done
done
echo "end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/load.txt"
/usr/bin/python3 "$ROOT/bench/sweep.py" "$OUT" | tee "$OUT/summary.md"
