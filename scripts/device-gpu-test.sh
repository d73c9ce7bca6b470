#!/usr/bin/env bash
# The nccl backend on a lent GPU machine, which has no Java or Maven.
#
#   scripts/device-gpu-test.sh prepare   # here: jars for CUDA 13 and 12, test classes, a jlinked runtime
#                                        # -> target/device/ (~50 MiB; carry it to the device)
#   scripts/device-gpu-test.sh run       # there: what the machine has, the GPU suite (NcclGpuTest, world 1,
#                                        # every collective/dtype/op/timing mode, 0 wrong), cctk run of
#                                        # scripts/device-gpu-one.yaml and PyTorch's all-reduce side by side
#
# With the session's run tool:  run(command="bash scripts/device-gpu-test.sh run", carry=["target/device"])
# Results land in $OUT (or target/device-results): machine.txt, gpu-suite.txt, cctk-*.csv, torch.csv,
# compare.txt. Exit code: non-zero if any part failed or any element was wrong.
set -uo pipefail
cd "$(dirname "$0")/.."
DEV=target/device
JDK_RUNTIME=${CCTK_DEVICE_JDK:-/usr/lib/jvm/java-17-openjdk-amd64}

prepare() {
    set -e
    rm -rf "$DEV" && mkdir -p "$DEV/lib"
    # CUDA 12 first (the device's torch wheel usually brings libcudart.so.12), then the default CUDA 13 build
    mvn -o -q -DskipTests -Pcuda12 package && cp target/cctk.jar "$DEV/cctk-cuda12.jar"
    mvn -o -q -DskipTests package test-compile && cp target/cctk.jar "$DEV/cctk-cuda13.jar"
    cp -r target/test-classes "$DEV/test-classes"
    local m2=${HOME}/.m2/repository
    cp "$m2/org/junit/platform/junit-platform-console-standalone/1.11.4/junit-platform-console-standalone-1.11.4.jar" \
       "$m2/org/assertj/assertj-core/3.26.3/assertj-core-3.26.3.jar" \
       "$m2/net/bytebuddy/byte-buddy/1.14.18/byte-buddy-1.14.18.jar" "$DEV/lib/"
    # java.base + jdk.unsupported is all cctk and JavaCPP need (java.logging: the JUnit launcher); JDK 17's
    # runtime needs glibc >= 2.34 like the 1.5.12+ presets; CCTK_DEVICE_JDK=<temurin 25> for older glibc
    local compress=--compress=2
    "$JDK_RUNTIME/bin/java" -version 2>&1 | grep -q '"17' || compress=--compress=zip-9
    "$JDK_RUNTIME/bin/jlink" --add-modules java.base,jdk.unsupported,java.logging --strip-debug \
        --no-header-files --no-man-pages "$compress" --output "$DEV/rt"
    cp scripts/device-gpu-one.yaml scripts/torch_allreduce.py "$DEV/"
    du -sh "$DEV"
}

run_on_device() {
    local out=${OUT:-target/device-results}
    mkdir -p "$out"
    local java="$DEV/rt/bin/java -Dorg.bytedeco.javacpp.pathsFirst=true"
    {
        echo "== uname / glibc"; uname -a; ldd --version 2>&1 | head -1
        echo "== nvidia-smi"; nvidia-smi 2>&1 | head -20
        echo "== libraries"; ls /usr/local/cuda*/lib64/libcudart.so* /usr/lib*/libnccl* \
            /usr/lib/x86_64-linux-gnu/libnccl* /usr/lib/x86_64-linux-gnu/libcuda.so* 2>/dev/null
        python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' 2>&1
    } > "$out/machine.txt"
    cat "$out/machine.txt"
    # Libraries: the system's, else those in torch's nvidia-* wheels (cudart, nccl)
    local site
    site=$(python3 -c 'import site; print(site.getsitepackages()[0])' 2>/dev/null || true)
    for d in "$site"/nvidia/cuda_runtime/lib "$site"/nvidia/nccl/lib; do
        [ -d "$d" ] && export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
    done
    export CCTK_JAVACPP_CACHE=${TMPDIR:-/tmp}/cctk-javacpp
    # the build whose CUDA major loads here
    local jar=""
    for major in 13 12; do
        if $java -cp "$DEV/cctk-cuda$major.jar:$DEV/test-classes" cctk.cli.Main --version >/dev/null 2>&1 \
            && NCCL_DEBUG=WARN $java -jar "$DEV/cctk-cuda$major.jar" run "$DEV/device-gpu-one.yaml" \
                > "$out/cctk-run-cuda$major.txt" 2>&1; then
            jar="$DEV/cctk-cuda$major.jar"; break
        fi
        tail -5 "$out/cctk-run-cuda$major.txt"
    done
    [ -n "$jar" ] || { echo "device: neither the CUDA 13 nor the CUDA 12 build ran (see above)"; exit 3; }
    echo "device: using $jar"; cat "$out/cctk-run-cuda"*.txt | tail -30
    cp target/device-results/*.csv "$out/" 2>/dev/null || true
    local rc=0
    $java -Dcctk.gpu.required=true -Dcctk.gpu.csvDir="$out" -jar "$DEV/lib/junit-platform-console-standalone-1.11.4.jar" \
        execute -cp "$jar:$DEV/test-classes:$DEV/lib/assertj-core-3.26.3.jar:$DEV/lib/byte-buddy-1.14.18.jar" \
        --select-class cctk.comm.nccl.NcclGpuTest --include-tag gpu --details=tree --disable-ansi-colors \
        > "$out/gpu-suite.txt" 2>&1 || rc=$?
    tail -40 "$out/gpu-suite.txt"
    if python3 "$DEV/torch_allreduce.py" --min 1024 --max $((1 << 30)) --factor 4 > "$out/torch.csv" 2>"$out/torch.err"; then
        compare "$out"
    else
        echo "device: torch comparison failed"; tail -5 "$out/torch.err"; rc=1
    fi
    exit "$rc"
}

# cctk's all_reduce rows (out-of-place and in-place) beside torch's in-place all_reduce, ratio per size
compare() {
    local out=$1 csv
    csv=$(ls "$out"/*device-gpu-one*.csv target/device-results/*.csv 2>/dev/null | head -1)
    python3 - "$csv" "$out/torch.csv" <<'PY' | tee "$out/compare.txt"
import csv, sys
cctk = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["collective"] == "all_reduce" and not r["skipped"]:
        cctk[(int(r["size_bytes"]), r["in_place"])] = (float(r["time_us"]), int(r["wrong"]))
torch = {int(r["size_bytes"]): float(r["time_us"]) for r in csv.DictReader(
    l for l in open(sys.argv[2]) if not l.startswith("#"))}
print(f"{'size_bytes':>12} {'cctk_oop_us':>12} {'cctk_ip_us':>12} {'torch_us':>10} {'ip/torch':>9} wrong")
for s in sorted(torch):
    o = cctk.get((s, "false"), (float("nan"), -1)); i = cctk.get((s, "true"), (float("nan"), -1))
    print(f"{s:>12} {o[0]:>12.2f} {i[0]:>12.2f} {torch[s]:>10.2f} {i[0] / torch[s]:>9.2f} {max(o[1], 0) + max(i[1], 0)}")
PY
}

case "${1:-}" in
    prepare) prepare ;;
    run) run_on_device ;;
    *) echo "usage: $0 prepare|run" >&2; exit 2 ;;
esac
