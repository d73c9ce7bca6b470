#!/usr/bin/env bash
# The nccl backend on a lent GPU machine, which has no Java or Maven.
#
#   scripts/device-gpu-test.sh prepare   # here: jars for CUDA 13, 12 and 12-oldglibc (the CUDA 12 ones where
#                                        # their presets can be had), test classes, a jlinked runtime ->
#                                        # target/device/ (checked <= 64 MiB: the device tool's carry limit); the
#                                        # newest GLIBC_ version each jar's native code asks for
#   scripts/device-gpu-test.sh run       # there: what the machine has; the build whose CUDA major loads (a
#                                        # load-only probe of each of CCTK_DEVICE_BUILDS, default "cuda13
#                                        # cuda12"); whether a GPU answers; the GPU suite (NcclGpuTest,
#                                        # world 1, default JIT warm-up), NCCL's own COLL log against what cctk
#                                        # asked (NcclGpuMoreTest), the >= 2 GPU part where there are 2 GPUs;
#                                        # the non-blocking communicator's deadlines (NcclNonBlockingGpuTest);
#                                        # cctk run of scripts/device-gpu-one.yaml; PyTorch's all-reduce beside it
#
# With the session's run tool:  run(command="bash scripts/device-gpu-test.sh run", carry=["target/device"])
# Results land in $OUT (or target/device-results): machine.txt, libs.txt, gpu-suite*.txt (gpu-suite-nonblocking.txt
# among them), coll-log.txt, profile_nccl_world1_*.csv, torch.csv, compare.txt.
# NVIDIA's libraries are looked for on the system, in every Python's nvidia/*/lib (site-packages of python3,
# the user site, $VIRTUAL_ENV, $CONDA_PREFIX) and in $CCTK_NVIDIA_LIBS (a ':' list of directories).
# Exit code: 0 all passed; 1 a part failed or an element was wrong; 3 no build loads here; 5 no GPU (reported
# as such after everything up to the GPU passed; CCTK_DEVICE_EXPECT_NO_GPU=1, as in CI, makes that exit 0).
# A lent device allows 600 s a command and 15 minutes in all: every step has its own limit (at most 540 s), and
# the whole run a budget (CCTK_DEVICE_TOTAL_S, default 540 s so that it fits one command; at most 720 s). Steps run
# most informative first (the GPU suite, then NCCL's COLL log, the 2-GPU part, the non-blocking communicator,
# cctk run, torch); a step whose time is not left is skipped and named. "plan" prints the steps and their limits
# and runs nothing (a dry run).
# Without pip libraries (a box with the driver and a system CUDA/NCCL), the system's directories are used.
# CCTK_DEVICE_BUILDS="cuda12-oldglibc" (or any of cuda13 cuda12 cuda12-oldglibc, in the order to try) picks the
# builds run considers; CI runs each CUDA 12 build alone against CUDA 12 libraries this way.
set -uo pipefail
cd "$(dirname "$0")/.."
DEV=target/device
JDK_RUNTIME=${CCTK_DEVICE_JDK:-/usr/lib/jvm/java-17-openjdk-amd64}
STEP_S=${CCTK_DEVICE_STEP_S:-540}
MAX_STEP_S=540
PREPARE_S=${CCTK_PREPARE_S:-1800}   # prepare runs here, not on the device
TOTAL_S=${CCTK_DEVICE_TOTAL_S:-540}
[ "$STEP_S" -le "$MAX_STEP_S" ] || STEP_S=$MAX_STEP_S
[ "$TOTAL_S" -le 720 ] || TOTAL_S=720
START_S=$SECONDS
BUILDS=${CCTK_DEVICE_BUILDS:-cuda13 cuda12}
# the newest GLIBC_ version the -Pcuda12-oldglibc jar's native code may ask for: RHEL 8's (Leonardo)
OLDGLIBC_MAX=2.28
# name:limit, in the order run uses them (a limit is also cut to the time the budget has left)
PLAN=()
for b in $BUILDS; do PLAN+=("load $b:90"); done
PLAN+=("devices:60" "gpu-suite.txt:240" "gpu-suite-more.txt:150" "gpu-suite-2.txt:150"
      "gpu-suite-nonblocking.txt:120" "cctk run:150" "torch:120" "nccl init:60")   # the last only without a GPU
CARRY_LIMIT=$((64 * 1024 * 1024))
JUNIT=junit-platform-console-standalone-1.11.4.jar

# The newest GLIBC_ and GLIBCXX_ versions the native libraries inside JAR ask for (objdump -T): the glibc floor
# of that build. For the -Pcuda12-oldglibc jar, one above OLDGLIBC_MAX fails prepare.
glibc_floor() { # glibc_floor JAR BUILD
    local jar=$1 build=$2 tmp f need all="" worst
    if ! command -v objdump >/dev/null; then
        echo "prepare: SKIPPED the glibc floor of $build: no objdump here (binutils)"
        return 0
    fi
    tmp=$(mktemp -d)
    python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for n in z.namelist():
    if n.endswith(".so") and "/linux-" in n:
        open(sys.argv[2] + "/" + n.rsplit("/", 1)[1], "wb").write(z.read(n))' "$jar" "$tmp"
    for f in "$tmp"/*.so; do
        [ -e "$f" ] || continue
        need=$(objdump -T "$f" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
        all="$all $(basename "$f") ${need:-none}$(objdump -T "$f" | grep -o 'GLIBCXX_[0-9.]*' | sort -uV | tail -1 \
            | sed 's/^/ /')"
    done
    worst=$(echo "$all" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
    rm -rf "$tmp"
    echo "prepare: $build: its native code needs ${worst:-no GLIBC_ version} at most (${all# })"
    if [ "$build" = cuda12-oldglibc ] && [ -n "$worst" ] \
            && [ "$(printf '%s\n' "${worst#GLIBC_}" "$OLDGLIBC_MAX" | sort -V | tail -1)" != "$OLDGLIBC_MAX" ]; then
        echo "prepare: the $build build needs $worst, above glibc $OLDGLIBC_MAX (RHEL 8), which it is for" >&2
        return 1
    fi
}

# The jar's classes were compiled against its own preset: the CUDA major javac inlined (NcclLibraries.CUDA_MAJOR)
# is the preset's (classes left by another profile would not be: the pom gives each profile its own classes)
preset_check() { # preset_check JAR BUILD
    local jar=$1 build=$2 preset major
    preset=$(python3 -c 'import sys, zipfile
p = zipfile.ZipFile(sys.argv[1]).read("META-INF/maven/org.bytedeco/cuda/pom.properties").decode()
print([l.split("=", 1)[1] for l in p.splitlines() if l.startswith("version=")][0])' "$jar")
    major=$("$JDK_RUNTIME/bin/javap" -cp "$jar" -constants cctk.comm.nccl.NcclLibraries \
        | sed -n 's/.*int CUDA_MAJOR = \([0-9]*\);/\1/p')
    echo "prepare: $build: preset $preset, classes compiled for CUDA ${major:-?}"
    if [ "${preset%%.*}" != "$major" ]; then
        echo "prepare: the $build jar's classes were compiled for CUDA ${major:-?}, its preset is $preset" >&2
        return 1
    fi
}

prepare() {
    set -e
    rm -rf "$DEV" && mkdir -p "$DEV/lib"
    # the CUDA 12 builds first (the device's torch wheel often brings libcudart.so.12), then the default CUDA 13
    # build, which target/cctk.jar keeps; each profile compiles into its own target/classes-<profile> (pom.xml).
    # A CUDA 12 preset may be missing from an offline Maven repository: then that build is left out (with CI=true
    # a failure)
    local b
    for b in cuda12 cuda12-oldglibc; do
        if timeout "$PREPARE_S" mvn -B -ntp -q -Dmaven.test.skip=true -Dcctk.skipMan=true -Dcctk.cds.skip=true \
                -P"$b" package; then
            cp target/cctk.jar "$DEV/cctk-$b.jar"
            preset_check "$DEV/cctk-$b.jar" "$b"
            glibc_floor "$DEV/cctk-$b.jar" "$b"
        elif [ "${CI:-}" = true ]; then
            echo "prepare: the $b build failed" >&2
            exit 1
        else
            echo "prepare: NOTE the $b build failed (its JavaCPP preset is not in the Maven repository?);" \
                 "carrying the others"
        fi
    done
    timeout "$PREPARE_S" mvn -B -ntp -q -DskipTests package test-compile
    cp target/cctk.jar "$DEV/cctk-cuda13.jar"
    preset_check "$DEV/cctk-cuda13.jar" cuda13
    glibc_floor "$DEV/cctk-cuda13.jar" cuda13
    cp -r target/test-classes "$DEV/test-classes"
    local m2=${HOME}/.m2/repository a
    for a in org.junit.platform:junit-platform-console-standalone:1.11.4 org.assertj:assertj-core:3.26.3 \
             net.bytebuddy:byte-buddy:1.14.18; do
        timeout "$PREPARE_S" mvn -B -ntp -q dependency:get -Dtransitive=false -Dartifact="$a" >/dev/null
    done
    cp "$m2/org/junit/platform/junit-platform-console-standalone/1.11.4/$JUNIT" \
       "$m2/org/assertj/assertj-core/3.26.3/assertj-core-3.26.3.jar" \
       "$m2/net/bytebuddy/byte-buddy/1.14.18/byte-buddy-1.14.18.jar" "$DEV/lib/"
    # java.base + jdk.unsupported: cctk and JavaCPP; java.logging: the JUnit launcher; java.management: the JIT
    # warm-up's compiler clock (without it the warm-up runs its whole budget). JDK 17's runtime needs glibc >= 2.34
    # like the 1.5.12+ presets; CCTK_DEVICE_JDK=<temurin 25> for older glibc
    local compress=--compress=2
    "$JDK_RUNTIME/bin/java" -version 2>&1 | grep -q '"17' || compress=--compress=zip-9
    "$JDK_RUNTIME/bin/jlink" --add-modules java.base,jdk.unsupported,java.logging,java.management --strip-debug \
        --no-header-files --no-man-pages "$compress" --output "$DEV/rt"
    cp scripts/device-gpu-one.yaml scripts/torch_allreduce.py "$DEV/"
    local bytes
    bytes=$(du -sb "$DEV" | cut -f1)
    echo "prepare: $DEV is $bytes bytes ($((bytes / 1024 / 1024)) MiB; the carry limit is 64 MiB)"
    if [ "$bytes" -gt "$CARRY_LIMIT" ]; then
        echo "prepare: $DEV is over the 64 MiB carry limit" >&2
        exit 1
    fi
}

has_libs() { # has_libs DIR: DIR holds a libcudart or libnccl
    local f
    for f in "$1"/libcudart.so* "$1"/libnccl.so*; do
        [ -e "$f" ] && return 0
    done
    return 1
}

# Directories holding NVIDIA's pip libraries, one a line: nvidia/<any>/lib under every site-packages we can find
pip_lib_dirs() {
    local sites=()
    local py
    for py in python3 "${VIRTUAL_ENV:+$VIRTUAL_ENV/bin/python}" "${CONDA_PREFIX:+$CONDA_PREFIX/bin/python}"; do
        [ -n "$py" ] && command -v "$py" >/dev/null 2>&1 || continue
        while IFS= read -r d; do sites+=("$d"); done < <(timeout 60 "$py" -c '
import site, sys
for d in list(getattr(site, "getsitepackages", lambda: [])()) + [site.getusersitepackages()] + sys.path:
    print(d)' 2>/dev/null)
    done
    [ -n "${CONDA_PREFIX:-}" ] && sites+=("$CONDA_PREFIX/lib")
    local s d
    for s in "${sites[@]}"; do
        for d in "$s"/nvidia/*/lib; do
            has_libs "$d" && echo "$d"
        done
        # conda puts the libraries straight into $CONDA_PREFIX/lib
        has_libs "$s" && echo "$s"
    done | awk '!seen[$0]++'
    return 0
}

# System directories holding libcudart or libnccl (CUDA toolkits, the distribution's), for a box without pip's
system_lib_dirs() {
    local d
    for d in ${CCTK_DEVICE_SYSTEM_LIBS:-/usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda-*/lib64 \
            /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib}; do
        [ -d "$d" ] && has_libs "$d" && readlink -f "$d"
    done | awk '!seen[$0]++'
    return 0
}

limit_of() { # limit_of NAME: the step's own limit from PLAN
    local e
    for e in "${PLAN[@]}"; do
        [ "${e%%:*}" = "$1" ] && { echo "${e##*:}"; return; }
    done
    echo "$STEP_S"
}

plan() { # the dry run: the steps, their limits, the budget
    local e sum=0
    for e in "${PLAN[@]}"; do
        echo "step ${e%%:*} ${e##*:} s"
        sum=$((sum + ${e##*:}))
    done
    echo "budget $TOTAL_S s (steps sum to $sum s; a step gets at most what is left); step limit $MAX_STEP_S s"
    echo "libraries: $( (pip_lib_dirs; echo "${CCTK_NVIDIA_LIBS:-}" | tr ':' '\n') | grep . | tr '\n' ' ')"
    echo "system fallback: $(system_lib_dirs | tr '\n' ' ')"
}

step() { # step NAME CMD...: runs CMD under the step's limit, cut to the budget left; says so when a limit hit
    local name=$1 rc
    shift
    local secs left
    secs=$(limit_of "$name")
    left=$((TOTAL_S - (SECONDS - START_S)))
    [ "$secs" -le "$left" ] || secs=$left
    if [ "$secs" -lt 20 ]; then
        echo "device: step '$name' skipped: ${left} s of the ${TOTAL_S} s budget left" \
            | tee -a "${OUT:-target/device-results}/skipped.txt" >&2
        return 124
    fi
    timeout "$secs" "$@"
    rc=$?
    [ "$rc" = 124 ] && echo "device: step '$name' ran past its $secs s limit" >&2
    return "$rc"
}

run_on_device() {
    local out=${OUT:-target/device-results}
    mkdir -p "$out"
    local java=("$DEV/rt/bin/java" -Dorg.bytedeco.javacpp.pathsFirst=true)
    {
        echo "== uname / glibc"; uname -a; ldd --version 2>&1 | head -1
        echo "== nvidia-smi"; timeout 60 nvidia-smi 2>&1 | head -20
        echo "== libraries"; ls /usr/local/cuda*/lib64/libcudart.so* /usr/lib*/libnccl* \
            /usr/lib/x86_64-linux-gnu/libnccl* /usr/lib/x86_64-linux-gnu/libcuda.so* 2>/dev/null
        timeout 120 python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' 2>&1
    } > "$out/machine.txt"
    cat "$out/machine.txt"
    if ! "${java[@]}" -version > "$out/java.txt" 2>&1; then
        echo "device: the carried Java runtime does not start here:"; tail -3 "$out/java.txt"
        echo "device: a JDK 17 runtime needs glibc >= 2.34 (ldd --version above); prepare with" \
             "CCTK_DEVICE_JDK=<a Temurin 25 JDK> for older glibc: exit 3"
        exit 3
    fi
    local d extra="" given=${CCTK_NVIDIA_LIBS:-}
    for d in $(pip_lib_dirs) ${given//:/ }; do
        [ -d "$d" ] && extra="${extra:+$extra:}$d"
    done
    if [ -z "$extra" ]; then
        # no pip libraries: a box with a system CUDA toolkit or NCCL package beside its driver
        for d in $(system_lib_dirs); do extra="${extra:+$extra:}$d"; done
        echo "device: no pip libraries found; the system's: ${extra:-none (only a driver?)}"
    fi
    export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$extra"
    echo "device: LD_LIBRARY_PATH=$LD_LIBRARY_PATH" | tee "$out/libs.txt"
    export CCTK_JAVACPP_CACHE=${TMPDIR:-/tmp}/cctk-javacpp-device
    # the build whose CUDA major loads here: a load-only probe (versions, no GPU needed)
    # (one whose runtime major the driver supports first; else the first that loads, to reach the clear error)
    local jar="" fallback="" b rt drv
    for b in $BUILDS; do
        if [ ! -f "$DEV/cctk-$b.jar" ]; then
            echo "device: no $DEV/cctk-$b.jar (prepare did not build it)"
            continue
        fi
        if step "load $b" "${java[@]}" -cp "$DEV/cctk-$b.jar:$DEV/test-classes" \
                cctk.comm.nccl.RealLibrariesProbe versions > "$out/load-$b.txt" 2>&1; then
            { echo "== $b"; cat "$out/load-$b.txt"; } >> "$out/libs.txt"
            rt=$(sed -n 's/^cudart 0 //p' "$out/load-$b.txt")
            drv=$(sed -n 's/^driver 0 //p' "$out/load-$b.txt")
            [ -n "$fallback" ] || fallback="$DEV/cctk-$b.jar"
            if [ -n "$rt" ] && [ -n "$drv" ] && [ $((drv / 1000)) -ge $((rt / 1000)) ]; then
                jar="$DEV/cctk-$b.jar"; break
            fi
            echo "device: the $b build loads, but the driver (CUDA $drv) is of an older major"
        else
            echo "device: the $b build does not load here:"; tail -3 "$out/load-$b.txt"
        fi
    done
    jar=${jar:-$fallback}
    [ -n "$jar" ] || { echo "device: no build loads here (see above): exit 3"; exit 3; }
    echo "device: using $jar"; cat "$out/libs.txt"
    local cp="$jar:$DEV/test-classes"
    step "devices" "${java[@]}" -cp "$cp" cctk.comm.nccl.RealLibrariesProbe devices > "$out/devices.txt" 2>&1
    cat "$out/devices.txt"
    local gpus
    gpus=$(sed -n 's/^devices 0 \([0-9]*\) .*/\1/p' "$out/devices.txt")
    local rc=0
    if [ -z "$gpus" ] || [ "$gpus" = 0 ]; then
        # cctk run as a user starts it: without a GPU it must stop with exit 3 and one paragraph
        cctk_run "$out" "$jar"
        no_gpu "$out" "$?" "$cp"
        return
    fi
    # most informative first: the GPU suite, NCCL's own log, the 2-GPU part; then cctk run and torch beside it
    gpu_suite "$out" "$cp" "$gpus" || rc=1
    cctk_run "$out" "$jar" || { echo "device: cctk run failed"; rc=1; }
    cp target/device-results/profile_nccl_world1_*.csv "$out/" 2>/dev/null || true
    if step "torch" python3 "$DEV/torch_allreduce.py" --min 1024 --max $((1 << 30)) --factor 4 \
            > "$out/torch.csv" 2>"$out/torch.err"; then
        compare "$out" || rc=1
    else
        echo "device: torch comparison failed"; tail -5 "$out/torch.err"; rc=1
    fi
    exit "$rc"
}

cctk_run() { # cctk_run OUT JAR: cctk run of device-gpu-one.yaml as a user starts it; its exit code
    local out=$1 jar=$2 run_rc
    rm -rf target/device-results/profile_nccl_world1_*
    NCCL_DEBUG=WARN step "cctk run" "${java[@]}" -jar "$jar" run "$DEV/device-gpu-one.yaml" > "$out/cctk-run.txt" 2>&1
    run_rc=$?
    tail -30 "$out/cctk-run.txt"
    return "$run_rc"
}

# No GPU answered: everything up to it passed; say so and stop (exit 5, or 0 where CI expects no GPU)
no_gpu() {
    local out=$1 run_rc=$2 cp=$3
    if [ "$run_rc" != 3 ] || grep -q $'\tat \|Exception' "$out/cctk-run.txt"; then
        echo "device: cctk run without a GPU should stop with exit 3 and one paragraph; it gave exit $run_rc"
        exit 1
    fi
    # one step past cctk run's own check: cctk's non-blocking ncclCommInitRankConfig (world 1, its ncclConfig_t
    # built through this build's preset) goes to the loaded NCCL, which must refuse it; cctk aborts the
    # communicator once, on the driving thread, and says why in one paragraph
    step "nccl init" "${java[@]}" -cp "$cp" cctk.comm.nccl.RealLibrariesProbe init > "$out/nccl-init.txt" 2>&1
    if ! grep -q '^init ENVIRONMENT ' "$out/nccl-init.txt" || ! grep -qx 'aborts 1 aborted true' "$out/nccl-init.txt" \
            || grep -q $'\tat ' "$out/nccl-init.txt"; then
        echo "device: NCCL's init without a GPU should be refused in one paragraph and aborted once:"
        cat "$out/nccl-init.txt"
        exit 1
    fi
    sed -n 's/^init ENVIRONMENT /device: nccl init refused: /p' "$out/nccl-init.txt"
    echo "device: NO GPU: $(sed -n 's/^devices //p' "$out/devices.txt") — the recipe stops at the GPU boundary;" \
         "libraries loaded, cctk run explained itself with exit 3, NCCL refused cctk's init" | tee "$out/no-gpu.txt"
    [ "${CCTK_DEVICE_EXPECT_NO_GPU:-0}" = 1 ] && exit 0
    exit 5
}

junit() { # junit OUTFILE CLASSPATH JUNIT-ARGS...
    local file=$1 cp=$2
    shift 2
    step "$file" "${java[@]}" -Dcctk.gpu.required=true -Dcctk.gpu.csvDir="$out" \
        -jar "$DEV/lib/$JUNIT" execute -cp "$cp:$DEV/lib/assertj-core-3.26.3.jar:$DEV/lib/byte-buddy-1.14.18.jar" \
        --details=tree --disable-ansi-colors "$@" > "$out/$file" 2>&1
}

gpu_suite() {
    local out=$1 cp=$2 gpus=$3 rc=0
    junit gpu-suite.txt "$cp" --select-class cctk.comm.nccl.NcclGpuTest --include-tag gpu || rc=1
    tail -40 "$out/gpu-suite.txt"
    # NCCL's own record of every call (datatype, op) against what cctk asked: NCCL reads these at init
    NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=COLL NCCL_DEBUG_FILE="$out/coll-log.%h.%p.txt" \
        junit gpu-suite-more.txt "$cp" --select-class cctk.comm.nccl.NcclGpuMoreTest --include-tag gpu \
            --exclude-tag gpu2 \
        || rc=1
    tail -30 "$out/gpu-suite-more.txt"
    if [ "$gpus" -ge 2 ]; then
        junit gpu-suite-2.txt "$cp" --select-class cctk.comm.nccl.NcclGpuMoreTest --include-tag gpu2 \
            || rc=1
        tail -20 "$out/gpu-suite-2.txt"
    else
        echo "device: one GPU: the >= 2 GPU part (tag gpu2) does not run"
    fi
    # the non-blocking communicator on a real GPU: an init whose peer never comes and a stuck stream end at
    # their deadlines, aborted by the driving thread, without a crash
    junit gpu-suite-nonblocking.txt "$cp" --select-class cctk.comm.nccl.NcclNonBlockingGpuTest --include-tag gpu \
        || rc=1
    tail -20 "$out/gpu-suite-nonblocking.txt"
    return "$rc"
}

# cctk's all_reduce rows (out-of-place and in-place) beside torch's in-place all_reduce, ratio per size
compare() {
    local out=$1 csv
    csv=$(ls -t "$out"/profile_nccl_world1_*.csv 2>/dev/null | head -1)
    [ -n "$csv" ] || { echo "device: no profile_nccl_world1_*.csv from cctk run to compare"; return 1; }
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
    libdirs) pip_lib_dirs ;;
    syslibdirs) system_lib_dirs ;;
    plan) plan ;;
    *) echo "usage: $0 prepare|run|plan" >&2; exit 2 ;;
esac
