# Sourced by bench/repro.sh, compare-reruns.sh, overhead.sh and gloo-module.sh: the MPI peer (bench/mpi_peer.c, this
# repository's own), the cross-core probe (bench/crosscore.c), the jars under test (copied, so rebuilding during a run changes nothing measured), the launcher
# as ./cctk starts it, and the header.
# shellcheck shell=bash
MPI_SRC=$ROOT/bench/mpi_peer.c
MPIRUN="mpirun --allow-run-as-root --oversubscribe --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo"

bench_out() {  # NAME -> a fresh absolute output directory (OUT, else target/bench-results/NAME-stamp)
  local out=${OUT:-$ROOT/target/bench-results/$1-$(date +%Y%m%d-%H%M%S)}
  mkdir -p "$out/runs" && (cd "$out" && pwd)
}

bench_jars() {  # OUT -> JAR (and OLD when OLD_JAR is set): copies with their class-data archives
  local src=${JAR:-$ROOT/target/cctk.jar}
  [ -f "$src" ] || { echo "no jar at $src (mvn -o -q -DskipTests package, or set JAR)" >&2; exit 2; }
  cp "$src" "$1/cctk.jar"
  [ -f "${src%.jar}.jsa" ] && cp "${src%.jar}.jsa" "$1/cctk.jsa"
  JAR=$1/cctk.jar
  OLD=""
  if [ -n "${OLD_JAR:-}" ]; then
    cp "$OLD_JAR" "$1/old.jar"
    [ -f "${OLD_JAR%.jar}.jsa" ] && cp "${OLD_JAR%.jar}.jsa" "$1/old.jsa"
    OLD=$1/old.jar
  fi
}

bench_mpi() {  # OUT -> OUT/mpi_peer (built from bench/mpi_peer.c), or a note why not
  if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null; then
    echo "not measured: mpi: mpicc/mpirun missing (apt-get install -y openmpi-bin libopenmpi-dev)" | tee "$1/not-measured.txt" >&2
  else
    mpicc -O2 -o "$1/mpi_peer" "$MPI_SRC"
  fi
}

bench_zc() {  # OUT -> OUT/zc_peer (built from bench/zc_peer.c, cctk's shm algorithms in C), or a note why not
  if command -v cc >/dev/null && cc -O3 -march=native -o "$1/zc_peer" "$ROOT/bench/zc_peer.c"; then
    :
  else
    echo "not measured: zc: no C compiler (apt-get install -y gcc)" | tee -a "$1/not-measured.txt" >&2
  fi
}

bench_crosscore() {  # OUT -> OUT/crosscore (built from bench/crosscore.c), or a note why not
  if command -v cc >/dev/null && cc -O3 -o "$1/crosscore" "$ROOT/bench/crosscore.c" -lpthread; then
    :
  else
    echo "not measured: the cross-core probe: no C compiler (apt-get install -y gcc)" | tee -a "$1/not-measured.txt" >&2
  fi
}

bench_pagefault() {  # OUT -> "first touch of a page: ..." (bench/pagefault.c), or a note why not
  if command -v cc >/dev/null && cc -O2 -o "$1/pagefault" "$ROOT/bench/pagefault.c" && f=$("$1/pagefault"); then
    set -- $f
    echo "first touch of a page: $2 us per 4 KiB page, $4 us per 4 KiB of a transparent huge page (bench/pagefault.c)"
  else
    echo "first touch of a page: not measured (no C compiler: apt-get install -y gcc)"
  fi
}

xcore() {  # OUT -> the machine's cross-core round trip of 1 MiB now, in us (bench/crosscore.c), or "-"
  if [ -x "$1/crosscore" ]; then "$1/crosscore" 0.5 2>/dev/null || echo -; else echo -; fi
}

cctk_launch() {  # JAR ARGS... : the launcher as ./cctk starts it (class-data archive, C1 only, serial collector)
  local jar=$1
  shift
  java -XX:SharedArchiveFile="${jar%.jar}.jsa" -Xshare:auto -Xlog:cds=off -Xlog:cds+dynamic=off -XX:+UseSerialGC \
    -XX:TieredStopAtLevel=1 -jar "$jar" "$@"
}

bench_header() {  # OUT TEXT
  {
    echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(nproc) CPUs; jar ${JAR} ($(sha256sum "$JAR" | cut -c1-12)," \
         "commit $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- src pom.xml || echo ' + changes'))"
    [ -z "$OLD" ] || echo "# old jar ${OLD_JAR} ($(sha256sum "$OLD" | cut -c1-12))"
    echo "# java: $(java -version 2>&1 | head -1); mpi: $(mpirun --version 2>/dev/null | head -1 || echo none)"
    echo "# $2"
  } | tee "$1/load.txt"
}
