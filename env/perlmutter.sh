# Sourced by the rendered job on Perlmutter compute nodes (sources: docs/sources.md). Keep it short.
# No NERSC Java module is known (❓ unconfirmed): use a JDK unpacked under $HOME.
if [ -d "${CCTK_JDK:-$HOME/jdk-17}/bin" ]; then export PATH="${CCTK_JDK:-$HOME/jdk-17}/bin:$PATH"; fi
# Slurm numbers GPUs in PCI bus order; make CUDA agree ([SLURM-GRES]).
export CUDA_DEVICE_ORDER=PCI_BUS_ID
