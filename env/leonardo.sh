# Sourced by the rendered job on Leonardo Booster nodes (sources: docs/sources.md). Keep it short.
# No Java module found on Leonardo (❓ unconfirmed): use a JDK unpacked under $WORK.
if [ -d "${CCTK_JDK:-${WORK:-$HOME}/jdk-17}/bin" ]; then export PATH="${CCTK_JDK:-${WORK:-$HOME}/jdk-17}/bin:$PATH"; fi
# Slurm numbers GPUs in PCI bus order; make CUDA agree ([SLURM-GRES]).
export CUDA_DEVICE_ORDER=PCI_BUS_ID
