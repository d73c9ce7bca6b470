/** Runs a job's ranks as local processes when there is no Slurm: the laptop and CI default. */
package cctk.launch;
