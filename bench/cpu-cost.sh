#!/usr/bin/env bash
# CPU cost per operation (user+sys seconds of all rank processes, every thread), cctk tcp vs Gloo: robust to a
# loaded machine, where wall-clock busbw mostly measures the scheduler. Each (system, collective, W, size) runs
# twice, with LO and HI timed iterations (warm-ups equal); the difference of the process trees' CPU time (getrusage
# of waited-for children, via /usr/bin/time) over HI-LO iterations is the CPU one operation costs all W ranks
# together (the barrier before each op included, for both systems). Startup, JIT and torch import cancel out.
# Gloo is this repository's bench/torch_gloo.py with --each --repeats 1 (a barrier before each timed call, as
# TcpBench does; its checked call and warm-ups are the same in both runs, so they cancel out too).
#
# usage: bench/cpu-cost.sh     env: SIZES=16M,64M WORLDS="2 4" COLLS=... LO=5 HI=45 OUT=dir
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GLOO_PEER=$ROOT/bench/torch_gloo.py
SIZES=${SIZES:-16M,64M}
WORLDS=${WORLDS:-"2 4"}
COLLS=${COLLS:-all_reduce,all_gather,broadcast,all_to_all}
LO=${LO:-5}
HI=${HI:-45}
OUT=${OUT:-$ROOT/target/bench-results/cpu-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
if [ -z "${CP:-}" ]; then
  (cd "$ROOT" && mvn -o -q test-compile)
  cp -r "$ROOT/target/classes" "$OUT/classes" && cp -r "$ROOT/target/test-classes" "$OUT/test-classes"
  CP="$OUT/classes:$OUT/test-classes"
fi

# prints user+sys seconds of one benchmark run (the process tree)
cpu_of() {
  local sys=$1 w=$2 coll=$3 size=$4 iters=$5 f="$OUT/$1_w$2_$3_$4_$5"
  if [ "$sys" = gloo ]; then
    /usr/bin/time -f "%U %S %e" -o "$f.time" /usr/bin/python3 "$GLOO_PEER" -w "$w" --sizes "$size" \
      --collectives "$coll" --iters "$iters" --repeats 1 --each --format peers --csv "$f.csv" > "$f.txt" 2>&1
  else
    /usr/bin/time -f "%U %S %e" -o "$f.time" java -cp "$CP" ${JAVA_OPTS:-} cctk.comm.tcp.TcpBench -w "$w" \
      --sizes "$size" --collectives "$coll" --iters "$iters" > "$f.txt" 2>&1
  fi
  awk '{print $1 + $2, $3}' "$f.time"
}

echo "system,world,collective,size_bytes,cpu_ms_per_op_all_ranks,wall_ms_per_op,load" > "$OUT/cpu.csv"
for w in $WORLDS; do
  for coll in ${COLLS//,/ }; do
    for size in ${SIZES//,/ }; do
      for sys in gloo cctk; do
        read -r c1 w1 < <(cpu_of "$sys" "$w" "$coll" "$size" "$LO")
        read -r c2 w2 < <(cpu_of "$sys" "$w" "$coll" "$size" "$HI")
        line=$(awk -v s="$sys" -v w="$w" -v c="$coll" -v z="$size" -v a="$c1" -v b="$c2" -v x="$w1" -v y="$w2" \
          -v n=$((HI - LO)) -v l="$(cut -d' ' -f1 /proc/loadavg)" \
          'BEGIN {printf "%s,%s,%s,%s,%.1f,%.1f,%s", s, w, c, z, (b - a) * 1000 / n, (y - x) * 1000 / n, l}')
        echo "$line" | tee -a "$OUT/cpu.csv"
      done
    done
  done
done
echo "results in $OUT/cpu.csv"
