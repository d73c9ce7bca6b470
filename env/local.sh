# Sourced by the rendered job on this machine and the local test Slurm. Keep it short.
# A JDK installed for the project (./.rt) comes first, so the jar runs with the Java it was built with.
if [ -d "${CCTK_JDK:-$PWD/.rt/jdk}/bin" ]; then export PATH="${CCTK_JDK:-$PWD/.rt/jdk}/bin:$PATH"; fi
