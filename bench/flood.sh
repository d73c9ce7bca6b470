#!/usr/bin/env bash
# Issue 23's flood figure, through the product (`cctk run`): a hostile second user (uid 65534, via setpriv) runs
# bench/flood.py, which keeps PER_PORT silent connections on every listening port of this user (found in
# /proc/net/tcp, as an attacker would) and reopens each the moment it is closed. For each backend (tcp-flat, tcp),
# REPS rounds of one clean and one flooded run, interleaved; per run: exit code, wall seconds, rows, #wrong, ranks
# blamed. Prints per backend the median clean and flooded wall time, their ratio and the spread (max/min) of each.
# Goal: every flooded run exits 0 with #wrong 0 and nobody blamed, in at most 2x the clean time.
#
# usage (as root): bench/flood.sh   env: JAR=target/cctk.jar OUT=dir REPS=5 PER_PORT=300 OLD_JAR= (a jar to compare)
# On a shared machine take the lock: flock /tmp/cctk-bench.lock bench/flood.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/common.sh"
REPS=${REPS:-5}
PER_PORT=${PER_PORT:-300}
[ "$(id -u)" = 0 ] || { echo "bench/flood.sh runs the stranger as uid 65534 and needs root (setpriv)" >&2; exit 2; }
OUT=$(bench_out flood)
bench_jars "$OUT"
bench_header "$OUT" "flood: $PER_PORT silent connections per listening port, reconnect on close; W=4; $REPS rounds"
cp "$ROOT/bench/flood.py" "$OUT/flood.py"
chmod 755 "$OUT" "$OUT/flood.py"

one() {  # JAR BACKEND TAG FLOOD(0/1) -> a line of runs.tsv
  local jar=$1 backend=$2 tag=$3 flood=$4 dir="$OUT/runs/$3" fp=""
  cat > "$OUT/runs/$tag.yaml" <<YAML
job: {name: flood, time_limit: "00:05:00", output_dir: "$dir"}
resources: {nodes: 1, tasks_per_node: 4}
benchmark:
  backends: [$backend]
  tasks: [4]
  collectives: [all_reduce, all_gather, broadcast, alltoall]
  sizes: {min: 1KiB, max: 1MiB, factor: 32}
  repeats: 1
  timeout: 30s
YAML
  if [ "$flood" = 1 ]; then
    setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 "$OUT/flood.py" --uid "$(id -u)" \
      --per-port "$PER_PORT" --seconds 600 2> "$OUT/runs/$tag.flood.log" &
    fp=$!
    sleep 0.5
  fi
  local start end rc=0
  start=$(date +%s.%N)
  cctk_launch "$jar" run "$OUT/runs/$tag.yaml" > "$OUT/runs/$tag.log" 2>&1 || rc=$?
  end=$(date +%s.%N)
  [ -z "$fp" ] || { kill "$fp"; wait "$fp" 2>/dev/null || true; }
  local rows=0 wrong=0 blamed
  if compgen -G "$dir/*.csv" > /dev/null; then
    read -r rows wrong < <(python3 - "$dir"/*.csv <<'PY'
import csv, sys
rows = wrong = 0
for f in sys.argv[1:]:
    for r in csv.DictReader(open(f)):
        rows += 1
        wrong += int(r["wrong"] or 0)
print(rows, wrong)
PY
)
  fi
  blamed=$(grep -cE "ranks? [0-9, ]+ did not join|probably died|stalled or died" "$OUT/runs/$tag.log" || true)
  printf '%s\t%s\t%s\t%d\t%.2f\t%d\t%d\t%d\n' "$backend" "$tag" "$flood" "$rc" "$(echo "$end - $start" | bc)" \
    "$rows" "$wrong" "$blamed" | tee -a "$OUT/runs.tsv"
}

printf 'backend\ttag\tflooded\texit\tseconds\trows\twrong\tblamed\n' > "$OUT/runs.tsv"
for backend in tcp-flat tcp; do
  for i in $(seq 1 "$REPS"); do
    one "$JAR" "$backend" "$backend-clean-$i" 0
    one "$JAR" "$backend" "$backend-flood-$i" 1
    if [ -n "$OLD" ]; then
      one "$OLD" "$backend" "$backend-old-flood-$i" 1
    fi
  done
done
python3 - "$OUT/runs.tsv" <<'PY' | tee "$OUT/summary.txt"
import csv, statistics, sys
runs = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
for backend in ("tcp-flat", "tcp"):
    mine = [r for r in runs if r["backend"] == backend]
    for label, pick in (("clean", lambda r: r["flooded"] == "0"),
                        ("flooded", lambda r: r["flooded"] == "1" and "-old-" not in r["tag"]),
                        ("old jar flooded", lambda r: "-old-" in r["tag"])):
        sel = [r for r in mine if pick(r)]
        if not sel:
            continue
        secs = [float(r["seconds"]) for r in sel]
        ok = sum(1 for r in sel if r["exit"] == "0" and int(r["rows"]) > 0 and r["wrong"] == "0" and r["blamed"] == "0")
        print("%-8s %-16s runs %d, complete+right+nobody blamed %d, wall median %.1f s (min %.1f, max %.1f)"
              % (backend, label, len(sel), ok, statistics.median(secs), min(secs), max(secs)))
    clean = [float(r["seconds"]) for r in mine if r["flooded"] == "0"]
    flood = [float(r["seconds"]) for r in mine if r["flooded"] == "1" and "-old-" not in r["tag"]]
    if clean and flood:
        print("%-8s flooded/clean wall: median %.2fx, worst flooded / median clean %.2fx"
              % (backend, statistics.median(flood) / statistics.median(clean), max(flood) / statistics.median(clean)))
PY
