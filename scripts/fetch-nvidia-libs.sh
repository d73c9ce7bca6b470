#!/usr/bin/env bash
# Fetches NVIDIA's user-space libraries for the nccl backend's real-library tests on a machine without a GPU:
#   - NCCL and the CUDA runtime as Python wheels (pip download --no-deps; a wheel is a zip), CUDA 13 and 12;
#   - where the CUDA 12 wheels cannot be had (a package index without them): NVIDIA's CUDA 12.6 libcudart.so.12 and
#     NCCL 2.23.4 (built for CUDA 12.6) from JavaCPP's redistributable jar on Maven Central
#     (org.bytedeco:cuda:12.6-9.5-1.5.11:linux-x86_64-redist, 2 GB: the preset of the -Pcuda12-oldglibc build; only
#     the two libraries are kept, the jar is deleted);
#   - the driver's user-space library libcuda.so.1 from Debian's non-free archive (libcuda1; no kernel module is
#     needed to load it), fetched with a private apt configuration so the system's sources stay as they are.
# Everything lands in a cache outside the checkout (default /var/cache/cctk-nvidia, or $CCTK_NVIDIA_CACHE):
#   <cache>/cu13/lib/{libcudart.so.13,libnccl.so.2}   <cache>/cu12/lib/{libcudart.so.12,libnccl.so.2}
#   <cache>/driver/lib/libcuda.so.1                    <cache>/versions.txt (what was fetched, sizes)
# Idempotent (a part already unpacked is kept), three tries per download. Exit 0 even when a part cannot be
# fetched: the tests that need it then skip and say why (<cache>/missing.txt lists it).
set -uo pipefail
cache=${CCTK_NVIDIA_CACHE:-/var/cache/cctk-nvidia}
mkdir -p "$cache/wheels" "$cache/deb"
: > "$cache/missing.txt"

retry() { # retry CMD...: three tries, 10 s and 20 s apart
    local try
    for try in 1 2 3; do
        "$@" && return 0
        echo "fetch-nvidia-libs: '$*' failed (try $try)" >&2
        [ "$try" = 3 ] || sleep $((try * 10))
    done
    return 1
}

unzip_lib() { # unzip_lib WHEEL DEST: the wheel's shared libraries, flat, into DEST
    python3 - "$1" "$2" <<'PY'
import os, sys, zipfile
wheel, dest = sys.argv[1], sys.argv[2]
os.makedirs(dest, exist_ok=True)
with zipfile.ZipFile(wheel) as z:
    for n in z.namelist():
        base = os.path.basename(n)
        if "/lib/" in n and ".so" in base:
            with z.open(n) as src, open(os.path.join(dest, base), "wb") as out:
                out.write(src.read())
            print(f"  {base} {z.getinfo(n).file_size} bytes")
PY
}

wheel() { # wheel MAJOR PACKAGE SONAME
    local major=$1 pkg=$2 so=$3 dest=$cache/cu$1/lib
    if [ -e "$dest/$so" ]; then
        echo "cu$major: $so already in $dest"
        return 0
    fi
    local dir=$cache/wheels/$pkg
    mkdir -p "$dir"
    if ! ls "$dir"/*.whl >/dev/null 2>&1; then
        retry timeout 900 python3 -m pip download -q --retries 1 --no-deps --only-binary=:all: --platform manylinux_2_28_x86_64 \
            --platform manylinux2014_x86_64 --platform manylinux_2_18_x86_64 --platform manylinux_2_17_x86_64 \
            --python-version 3.11 -d "$dir" "$pkg" || { echo "cu$major: $pkg ($so)" >> "$cache/missing.txt"; return 0; }
    fi
    local w
    w=$(ls "$dir"/*.whl | head -1)
    echo "cu$major: $(basename "$w") $(stat -c %s "$w") bytes"
    unzip_lib "$w" "$dest"
    [ -e "$dest/$so" ] || echo "cu$major: $pkg has no $so" >> "$cache/missing.txt"
}

redist12() { # CUDA 12 libraries the wheels did not give, from JavaCPP's CUDA 12.6 redist jar (Maven Central)
    local dest=$cache/cu12/lib want=() so
    for so in libnccl.so.2 libcudart.so.12; do
        [ -e "$dest/$so" ] || want+=("$so")
    done
    [ "${#want[@]}" -gt 0 ] || return 0
    if ! command -v mvn >/dev/null; then
        echo "cu12: no mvn to fetch JavaCPP's CUDA 12 redist jar" >> "$cache/missing.txt"
        return 0
    fi
    local gav=org.bytedeco:cuda:12.6-9.5-1.5.11:jar:linux-x86_64-redist repo=$cache/m2-redist
    local jar=$repo/org/bytedeco/cuda/12.6-9.5-1.5.11/cuda-12.6-9.5-1.5.11-linux-x86_64-redist.jar
    echo "cu12: ${want[*]} from $gav (Maven Central)"
    # a private local repository, removed afterwards: the 2 GB jar stays out of ~/.m2
    (cd "$cache" && retry timeout 1800 mvn -B -ntp -q -Dmaven.repo.local="$repo" \
        org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get -Dtransitive=false -Dartifact="$gav") \
        || { echo "cu12: ${want[*]} ($gav)" >> "$cache/missing.txt"; rm -rf "$repo"; return 0; }
    echo "cu12: $(basename "$jar") $(stat -c %s "$jar") bytes"
    python3 - "$jar" "$dest" "${want[@]}" <<'PY'
import os, sys, zipfile
jar, dest, want = sys.argv[1], sys.argv[2], set(sys.argv[3:])
os.makedirs(dest, exist_ok=True)
with zipfile.ZipFile(jar) as z:
    for n in z.namelist():
        base = os.path.basename(n)
        if n.startswith("org/bytedeco/cuda/linux-x86_64/") and base in want:
            with z.open(n) as src, open(os.path.join(dest, base), "wb") as out:
                out.write(src.read())
            print(f"  {base} {z.getinfo(n).file_size} bytes")
PY
    rm -rf "$repo"
    for so in "${want[@]}"; do
        [ -e "$dest/$so" ] || echo "cu12: $gav has no $so" >> "$cache/missing.txt"
    done
}

driver() {
    local dest=$cache/driver/lib
    if [ -e "$dest/libcuda.so.1" ]; then
        echo "driver: libcuda.so.1 already in $dest"
        return 0
    fi
    local apt=$cache/apt
    mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/etc"
    local suite
    suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
    printf 'deb http://deb.debian.org/debian %s main contrib non-free non-free-firmware\n' "$suite" \
        > "$apt/etc/sources.list"
    local opts=(-o "Dir::Etc::SourceList=$apt/etc/sources.list" -o "Dir::Etc::SourceParts=/nonexistent"
                -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache::Archives=$apt/archives"
                -o "Dir::Cache=$apt" -o Acquire::Retries=3 -o APT::Sandbox::User=root)
    retry apt-get -q "${opts[@]}" update >/dev/null || { echo "driver: libcuda1 (apt-get update)" >> "$cache/missing.txt"; return 0; }
    apt-cache "${opts[@]}" policy libcuda1 | sed -n 1,3p
    (cd "$cache/deb" && retry apt-get -q "${opts[@]}" download libcuda1) \
        || { echo "driver: libcuda1 (apt-get download)" >> "$cache/missing.txt"; return 0; }
    local deb
    deb=$(ls "$cache"/deb/libcuda1_*.deb | head -1)
    echo "driver: $(basename "$deb") $(stat -c %s "$deb") bytes"
    rm -rf "$cache/driver/x" && mkdir -p "$cache/driver" && dpkg-deb -x "$deb" "$cache/driver/x"
    mkdir -p "$dest"
    local real
    real=$(find "$cache/driver/x" -name 'libcuda.so.*.*' -type f | head -1)
    [ -n "$real" ] || { echo "driver: libcuda1 has no libcuda.so" >> "$cache/missing.txt"; return 0; }
    cp "$real" "$dest/" && ln -sfn "$(basename "$real")" "$dest/libcuda.so.1"
    echo "  $(basename "$real") $(stat -c %s "$real") bytes"
}

wheel 13 nvidia-nccl-cu13 libnccl.so.2
wheel 13 nvidia-cuda-runtime libcudart.so.13
wheel 12 nvidia-nccl-cu12 libnccl.so.2
wheel 12 nvidia-cuda-runtime-cu12 libcudart.so.12
if [ ! -e "$cache/cu12/lib/libnccl.so.2" ] || [ ! -e "$cache/cu12/lib/libcudart.so.12" ]; then
    # the redist replaces what the wheels did not give: only what is still missing counts as missing
    sed -i '/^cu12: /d' "$cache/missing.txt"
    redist12
fi
driver
{
    for f in "$cache"/cu13/lib/* "$cache"/cu12/lib/* "$cache"/driver/lib/*; do
        [ -e "$f" ] && echo "$f $(stat -L -c %s "$f") bytes"
    done
} > "$cache/versions.txt"
cat "$cache/versions.txt"
if [ -s "$cache/missing.txt" ]; then
    echo "fetch-nvidia-libs: NOT fetched (the tests needing them will skip and say so):"
    cat "$cache/missing.txt"
fi
du -sh "$cache"
exit 0
