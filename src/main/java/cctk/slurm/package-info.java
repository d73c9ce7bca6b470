/** Talks to Slurm: sbatch, squeue, scontrol, sacct as argv processes with deadlines; job states; manifests. */
package cctk.slurm;
