#!/usr/bin/env bash
# Issue 22's sweep overhead: `cctk run --nproc 2` over 4 B - 64 MiB (factor 4), every collective, both layouts, one
# repeat, RUNS times: the wall time of the whole command (launcher, ranks, rendezvous, warm-up, sweep, files) against
# the time inside the timed loops that ran (re-timed loops included; the result JSON's summary.time), and the fixed
# costs (wall - the sweep). Goals: wall <= 1.25 x timed loops; fixed costs <= 1.5 s at W = 2.
#
# FLOOR=1 measures the same sweep with every optional cost of the product off, to show what is left of the overhead
# when nothing but the issue's own requirements remains: no JIT warm-up (jit_warmup: 0), no re-timing (retime: false),
# one warm-up call a point (warmup: 1); still one checked call a point (check_iters: 1), as every result is checked.
# (A spec, as jit_warmup has no flag; the same sizes, collectives, layouts, iters and window.)
#
# usage: bench/overhead.sh [RUNS]   env: JAR=target/cctk.jar OUT=dir W=2 REPEATS=1 CCTK_ARGS= FLOOR=
# On a shared machine take the lock: flock /tmp/cctk-bench.lock bench/overhead.sh 3
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/common.sh"
RUNS=${1:-3}
W=${W:-2}
REPEATS=${REPEATS:-1}
SIZES=4B,16B,64B,256B,1KiB,4KiB,16KiB,64KiB,256KiB,1MiB,4MiB,16MiB,64MiB
OUT=$(bench_out overhead)
bench_jars "$OUT"
OLD=""
bench_header "$OUT" "runs $RUNS, W $W, repeats $REPEATS, sizes $SIZES, every collective, both layouts${FLOOR:+;\
 FLOOR: jit_warmup 0, retime false, warmup 1, check_iters 1}"
printf 'run\twall_s\tsweep_s\ttimed_loops_s\tloops\tstart_s\tsetup_s\tjit_warmup_s\twall/timed\tfixed_s\n' \
  > "$OUT/overhead.tsv"
for k in $(seq 1 "$RUNS"); do
  dir="$OUT/runs/r$k"
  mkdir -p "$dir"
  t0=$(date +%s.%N)
  if [ -n "${FLOOR:-}" ]; then
    cat > "$dir/floor.yaml" <<SPEC
extends: $ROOT/configs/clusters/local.yaml
job: {name: floor, output_dir: "$dir"}
resources: {nodes: 1, tasks_per_node: $W}
benchmark: {backends: [tcp], tasks: [$W], collectives: all, sizes: [${SIZES}], dtypes: [float32], ops: [sum],
  warmup: 1, iters: 20, check_iters: 1, repeats: $REPEATS, retime: false, jit_warmup: 0}
SPEC
    # shellcheck disable=SC2086
    cctk_launch "$JAR" run "$dir/floor.yaml" --quiet ${CCTK_ARGS:-} > "$dir/run.log" 2>&1
  else
    # shellcheck disable=SC2086
    cctk_launch "$JAR" run --nproc "$W" --sizes "$SIZES" --repeats "$REPEATS" -o "$dir" --quiet ${CCTK_ARGS:-} \
      > "$dir/run.log" 2>&1
  fi
  t1=$(date +%s.%N)
  python3 - "$dir" "$t0" "$t1" "$k" >> "$OUT/overhead.tsv" <<'EOF'
import glob, json, sys
d, t0, t1, k = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
doc = json.load(open(glob.glob(d + "/profile_*.json")[0]))
t = doc["summary"]["time"]
wall = t1 - t0
print("\t".join([k, f"{wall:.2f}", f"{t['sweep_s']:.2f}", f"{t['timed_loops_s']:.2f}", str(t["timed_loops"]),
                 f"{t['start_s']:.2f}", f"{t['setup_s']:.2f}", f"{t['jit_warmup_s']:.2f}",
                 f"{wall / t['timed_loops_s']:.3f}", f"{wall - t['sweep_s']:.2f}"]))
EOF
  echo "  run $k $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/load.txt"
done
column -t -s $'\t' "$OUT/overhead.tsv" | tee "$OUT/overhead.txt"
awk -F'\t' 'NR > 1 { n++; if ($9 <= 1.25) a++; if ($10 <= 1.5) b++ }
  END { printf "goals: wall <= 1.25 x timed loops in %d of %d runs; fixed costs <= 1.5 s in %d of %d\n", a, n, b, n }' \
  "$OUT/overhead.tsv" | tee -a "$OUT/overhead.txt"
