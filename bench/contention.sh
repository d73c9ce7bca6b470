#!/usr/bin/env bash
# Issue 22's "stable under contention": the same sweep through the product with HOGS busy processes on the machine
# (another user's work: each one a shell loop that never sleeps), the jar under test against OLD_JAR, alternating,
# ROUNDS times; prints per cell the median busbw over the rounds of each jar, their ratio, and each jar's max/min over
# the rounds. W=2 on 2 vCPUs with one hog: a rank that spins while its peer waits for a core pays for the spin.
#
# usage: bench/contention.sh [ROUNDS]   env: JAR=target/cctk.jar OLD_JAR=... OUT=dir HOGS=1 W=2 BACKEND=tcp
#                                          SIZES=1MiB,16MiB COLLS=all_reduce,all_gather,broadcast
# HOGS=0 makes it a plain interleaved before/after of two jars on a quiet machine.
# On a shared machine take the lock: flock /tmp/cctk-bench.lock bench/contention.sh 3
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/common.sh"
ROUNDS=${1:-3}
HOGS=${HOGS:-1}
W=${W:-2}
BACKEND=${BACKEND:-tcp}
SIZES=${SIZES:-1MiB,16MiB}
COLLS=${COLLS:-all_reduce,all_gather,broadcast}
OUT=$(bench_out contention)
bench_jars "$OUT"
[ -n "$OLD" ] || { echo "set OLD_JAR to the jar to compare with" >&2; exit 2; }
bench_header "$OUT" "rounds $ROUNDS, hogs $HOGS, W $W, backend $BACKEND, sizes $SIZES, collectives $COLLS"
pids=()
for _ in $(seq 1 "$HOGS"); do
  bash -c 'while :; do :; done' &
  pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
for r in $(seq 1 "$ROUNDS"); do
  for j in new old; do
    [ $((r % 2)) -eq 0 ] && j=$([ "$j" = new ] && echo old || echo new)
    jar=$JAR
    [ "$j" = old ] && jar=$OLD
    dir="$OUT/runs/$j-r$r"
    mkdir -p "$dir"
    t0=$(date +%s.%N)
    cctk_launch "$jar" run --backend "$BACKEND" --nproc "$W" --collectives "$COLLS" --sizes "$SIZES" --in-place false -o "$dir" --quiet \
      > "$dir/run.log" 2>&1 || echo "  $j round $r failed, see $dir/run.log" >&2
    printf '  %-4s round %s %6.1f s  load %s\n' "$j" "$r" "$(awk "BEGIN { print $(date +%s.%N) - $t0 }")" \
      "$(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/load.txt"
  done
done
python3 - "$OUT" <<'EOF' | tee "$OUT/contention.md"
import csv, glob, os, statistics, sys
out = sys.argv[1]
by = {}
for d in sorted(glob.glob(os.path.join(out, "runs", "*"))):
    jar = os.path.basename(d).split("-")[0]
    for path in glob.glob(os.path.join(d, "profile_*.csv")):
        for r in csv.DictReader(open(path, newline="")):
            if r["busbw_gbps"] and not r.get("skipped"):
                by.setdefault((r["collective"], int(r["size_bytes"])), {}).setdefault(jar, []).append(
                    float(r["busbw_gbps"]))
print("| collective | size | new busbw (median) | old busbw (median) | new/old | new max/min | old max/min |")
print("|---|---|---|---|---|---|---|")
for (c, s), v in sorted(by.items()):
    n, o = v.get("new", []), v.get("old", [])
    if not n or not o:
        continue
    print(f"| {c} | {s >> 20} MiB | {statistics.median(n):.3g} | {statistics.median(o):.3g} | "
          f"{statistics.median(n) / statistics.median(o):.2f}x | {max(n) / min(n):.2f} | {max(o) / min(o):.2f} |")
EOF
