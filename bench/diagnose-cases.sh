#!/usr/bin/env bash
# Issue 27's benchmark: `cctk diagnose` (the product, as a user runs it) on the local four-node, two-NIC cluster of
# network namespaces (scripts/slurm-local.sh start netns with CCTK_SLURM_NODES=4; root), RUNS runs per faulty case
# and 2 x RUNS clean runs, the cases interleaved run by run so that a drift of the machine touches them alike:
#   clean  nothing changed                                     want: no suspect (healthy or inconclusive)
#   nic    node3 eth0 at 300 Mbit/s (tc-tbf(8))                want: node+NIC node3 eth0
#   node   node3 eth0 and eth1 at 300 Mbit/s                   want: node node3
#   half   node2 eth0 at half the clean eth0 pairs' rate       want: node2 eth0 found, or inconclusive; never healthy
#          (the median of the eth0 sendrecv pairs' medians of 3 clean calibration runs, not counted); a half run
#          counts only where that limit was at most 0.6x the same run's eth0 sendrecv pairs without node2 (a busy VM
#          can carry less than the limit on every link: then there is no slow link to find), the others are listed
#   rank   rank 4 (node3's first task) capped at 10 % of a CPU want: a rank or node3, never a NIC
#          by a cgroup CPU quota from its first second on
# Prints one line per run (case, verdict, exit, wall seconds) and a table: runs, verdicts, goal met, median wall.
# Every rank runs the copy of JAR this script makes (the spec's cluster.jar), so a rebuild meanwhile changes nothing.
#
# usage: bench/diagnose-cases.sh [RUNS]     env: JAR=target/cctk.jar OUT=dir SPEC=configs/diagnose-4node.yaml
#                                                CASES="clean nic node half rank" CPU_PCT=10 SLOW=300mbit
# On a shared machine take the lock: flock /tmp/cctk-bench.lock bench/diagnose-cases.sh 6
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-6}
CASES=${CASES:-"clean nic node half rank"}
CPU_PCT=${CPU_PCT:-10}
SLOW=${SLOW:-300mbit}
SPEC=${SPEC:-$ROOT/configs/diagnose-4node.yaml}
JAR=${JAR:-$ROOT/target/cctk.jar}
OUT=${OUT:-$ROOT/target/bench-results/diagnose-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT/runs"
OUT=$(cd "$OUT" && pwd)
[ "$(id -u)" = 0 ] || { echo "not measured: needs root (tc in the nodes' namespaces, a cgroup)" >&2; exit 2; }
for n in node1 node2 node3 node4; do
  ip netns exec "$n" true 2>/dev/null || { echo "not measured: no namespace $n (CCTK_SLURM_NODES=4 bash" \
    "scripts/slurm-local.sh start netns)" >&2; exit 2; }
done
[ -f "$JAR" ] || { echo "no jar at $JAR (mvn -q -DskipTests package, or set JAR)" >&2; exit 2; }
cp "$JAR" "$OUT/cctk.jar"
JAVA=$(command -v java)

CG=""
cgroup_make() {  # a CPU-quota cgroup of CPU_PCT % of one CPU: v2 (cpu.max) or v1 (cfs quota)
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    CG=/sys/fs/cgroup/cctk-bench-slow
    echo +cpu > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || true
    mkdir -p "$CG" && echo "$((CPU_PCT * 1000)) 100000" > "$CG/cpu.max"
  elif [ -d /sys/fs/cgroup/cpu ]; then
    CG=/sys/fs/cgroup/cpu/cctk-bench-slow
    mkdir -p "$CG" && echo 100000 > "$CG/cpu.cfs_period_us" && echo "$((CPU_PCT * 1000))" > "$CG/cpu.cfs_quota_us"
  else
    echo "not measured: rank: no cgroup CPU controller" >&2
  fi
}

cap_rank() {  # JOBNAME RANK: moves that rank's process into the quota cgroup as soon as it exists (60 s at most)
  local name=$1 rank=$2 pid env
  for _ in $(seq 1 1200); do
    for pid in $(pgrep -f "cctk.jar rank" || true); do
      env=$(tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null || true)
      if grep -qx "SLURM_JOB_NAME=$name" <<< "$env" && grep -qx "SLURM_PROCID=$rank" <<< "$env"; then
        echo "$pid" > "$CG/cgroup.procs" && echo "capped rank $rank (pid $pid) at $CPU_PCT %" >> "$OUT/capped.txt"
        return 0
      fi
    done
    sleep 0.05
  done
  echo "rank $rank of $name never started" >> "$OUT/capped.txt"
}

tbf() {  # NODE NIC RATE
  ip netns exec "$1" tc qdisc add dev "$2" root tbf rate "$3" burst 256kb latency 100ms
}

heal() {
  local n d
  for n in node1 node2 node3 node4; do
    for d in eth0 eth1; do ip netns exec "$n" tc qdisc del dev "$d" root 2>/dev/null || true; done
  done
}
trap heal EXIT
heal

HALF=""
run_one() {  # CASE I
  local c=$1 i=$2 name="dg-$1-$2" dir="$OUT/runs/$1-$2" t0 t1 rc=0 watcher=""
  mkdir -p "$dir"
  printf 'extends: %s\ncluster:\n  jar: %s\njob:\n  name: %s\n  output_dir: %s\n' "$SPEC" "$OUT/cctk.jar" "$name" \
    "$dir/out" > "$dir/spec.yaml"
  case $c in
    nic) tbf node3 eth0 "$SLOW" ;;
    node) tbf node3 eth0 "$SLOW"; tbf node3 eth1 "$SLOW" ;;
    half) tbf node2 eth0 "$HALF" ;;
    rank) cap_rank "$name" 4 & watcher=$! ;;
  esac
  t0=$(date +%s.%N)
  "$JAVA" -jar "$OUT/cctk.jar" diagnose "$dir/spec.yaml" > "$dir/diagnose.log" 2>&1 || rc=$?
  t1=$(date +%s.%N)
  [ -n "$watcher" ] && { kill "$watcher" 2>/dev/null || true; wait "$watcher" 2>/dev/null || true; }
  heal
  local json
  json=$(sed -n 's/^cctk diagnose: verdict in //p' "$dir/diagnose.log" | head -1)
  python3 - "$c" "$i" "$rc" "$(awk "BEGIN { print $t1 - $t0 }")" "${json:-none}" "$dir" "${HALF%mbit}" \
    >> "$OUT/runs.tsv" <<'EOF'
import csv, glob, json, statistics, sys
case, i, rc, wall, path, d, half_mbit = sys.argv[1:]
try:
    doc = json.load(open(path))
except Exception:
    print("\t".join([case, i, rc, wall, "NO VERDICT", "-", "no", d]))
    sys.exit()
status = doc.get("status")
confirmed = [f"{s['kind']} {s['subject']}" for s in doc.get("suspects", []) if s.get("confirmed")]
named = "; ".join(confirmed) if confirmed else "-"
nic_named = any(s.startswith("node+NIC") or s.startswith("pair") for s in confirmed)
if case == "clean":
    ok = not confirmed and status in ("OK", "INCONCLUSIVE")
elif case == "nic":
    ok = confirmed == ["node+NIC node3 eth0"]
elif case == "node":
    ok = confirmed == ["node node3"]
elif case == "half":
    ok = status != "OK" and all(s == "node+NIC node2 eth0" for s in confirmed) and (confirmed or status == "INCONCLUSIVE")
    # was the link at half speed in this run? the limit against the same run's eth0 sendrecv pairs without node2
    # (a busy VM can carry less than the limit on every link: then there is no slow link to find)
    pairs = [float(r["sendrecv_gbps"]) for f in glob.glob(d + "/out/diagnose_*_pairs.csv") for r in csv.DictReader(open(f))
             if r["mode"] == "eth0" and "node2" not in (r["node_a"], r["node_b"])]
    if pairs and half_mbit:
        link = float(half_mbit) / 8e3 / statistics.median(pairs)
        if link > 0.6:
            ok = None
            named += f" (not a slow link this run: its limit was {link:.2f}x the other eth0 pairs)"
else:
    ok = bool(confirmed) and not nic_named and all("node3" in s or s.startswith("rank") for s in confirmed)
print("\t".join([case, i, rc, wall, status, named, "n/a" if ok is None else "yes" if ok else "no", d]))
EOF
  tail -1 "$OUT/runs.tsv" | cut -f1-7
}

echo "cctk diagnose cases: $RUNS runs each ($((2 * RUNS)) clean), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)," \
  "jar $(sha256sum "$JAR" | cut -c1-12), $(date -u +%FT%TZ)" | tee "$OUT/header.txt"
: > "$OUT/runs.tsv"
[[ " $CASES " == *" rank "* ]] && cgroup_make
# three calibration runs, not counted: the clean eth0 rate is the median of their eth0 sendrecv pairs' medians (one
# run slowed by load would make "half" far slower than half, one lucky run far faster: both were seen)
for k in 0a 0b 0c; do run_one clean "$k"; done
HALF=$(python3 - "$OUT/runs" <<'EOF'
import glob, json, sys
import statistics
rates = []
for path in glob.glob(sys.argv[1] + "/clean-0?/out/diagnose_*.json"):
    doc = json.load(open(path))
    rates += [r["pair_median_gbps"] for r in doc["references"] if r["test"] == "eth0 sendrecv"]
# half of their median, in Mbit/s
print(f"{max(statistics.median(rates) * 8e3 / 2, 10):.0f}mbit")
EOF
)
echo "half speed: node2 eth0 at $HALF (half of the median eth0 sendrecv median of 3 clean calibration runs)" | tee -a "$OUT/header.txt"
for i in $(seq 1 "$RUNS"); do
  for c in $CASES; do
    run_one "$c" "$i"
    [ "$c" = clean ] && run_one clean "$((RUNS + i))"
  done
done
[ -n "$CG" ] && rmdir "$CG" 2>/dev/null || true
python3 - "$OUT/runs.tsv" <<'EOF' | tee "$OUT/table.md"
import collections, statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
by = collections.OrderedDict()
for r in rows:
    if r[1].startswith("0"):
        continue  # the runs that measured the half-speed rate
    by.setdefault(r[0], []).append(r)
print("| case | runs | verdicts (status: confirmed suspects) | goal met | median wall (s) |")
print("|---|---|---|---|---|")
for case, rs in by.items():
    verdicts = collections.Counter(f"{r[4]}: {r[5]}" for r in rs)
    met = sum(r[6] == "yes" for r in rs)
    valid = sum(r[6] != "n/a" for r in rs)
    wall = statistics.median(float(r[3]) for r in rs)
    print(f"| {case} | {len(rs)} | " + "; ".join(f"{v} x{n}" for v, n in verdicts.most_common())
          + f" | {met} of {valid}" + (f" ({len(rs) - valid} without the fault)" if valid < len(rs) else "")
          + f" | {wall:.1f} |")
EOF
