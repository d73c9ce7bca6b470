/** What every task runs: who am I (Slurm, torchrun or Open MPI variables), rendezvous, the rank's main flow. */
package cctk.rank;
