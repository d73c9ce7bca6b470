# Sourced by the rendered job on Perlmutter compute nodes (clusters.md §1). Keep it short.
# No NERSC Java module is known (clusters.md §1.4, unconfirmed): use a JDK unpacked under $HOME.
if [ -d "${CCTK_JDK:-$HOME/jdk-17}/bin" ]; then export PATH="${CCTK_JDK:-$HOME/jdk-17}/bin:$PATH"; fi
# Slurm numbers GPUs in PCI bus order; make CUDA agree (clusters.md §4.2, [SLURM-GRES]).
export CUDA_DEVICE_ORDER=PCI_BUS_ID
