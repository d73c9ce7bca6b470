# Sourced by the rendered job on Leonardo Booster nodes (clusters.md §2). Keep it short.
# No Java module found on Leonardo (clusters.md §2.5, unconfirmed): use a JDK unpacked under $WORK.
if [ -d "${CCTK_JDK:-${WORK:-$HOME}/jdk-17}/bin" ]; then export PATH="${CCTK_JDK:-${WORK:-$HOME}/jdk-17}/bin:$PATH"; fi
# Slurm numbers GPUs in PCI bus order; make CUDA agree (clusters.md §4.2, [SLURM-GRES]).
export CUDA_DEVICE_ORDER=PCI_BUS_ID
