#!/usr/bin/env bash
# Fill and check throughput per rank (issue 15): cctk.bench.FillCheckBench drives the product path's BufferData
# (fill the send buffer, poison, count wrong elements) on tcp-like host memory and prints GB/s per rank, fill,
# poison and check separately and together, for all_reduce (sum) and all_gather at 64 MiB, float32 and bfloat16.
#
# usage: bench/fill-check.sh [MiB] [repeats] [collectives] [types]
#        (defaults 64 5 all_reduce,all_gather float32,bfloat16; JAVA_OPTS are passed to java)
# On a shared machine take the lock so that no other benchmark runs at the same time:
#        flock /tmp/cctk-bench.lock bash bench/fill-check.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
(cd "$ROOT" && mvn -o -q test-compile)
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(git -C "$ROOT" rev-parse --short HEAD) load $(cut -d' ' -f1-3 /proc/loadavg)"
# 3 buffers of the size plus staging: the direct-memory limit follows the heap limit
java -Xms1g -Xmx2g ${JAVA_OPTS:-} -cp "$ROOT/target/classes:$ROOT/target/test-classes" cctk.bench.FillCheckBench "$@"
