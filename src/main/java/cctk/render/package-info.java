/** Turns a job spec into an sbatch script with its srun lines; every spec value is shell-quoted in one place. */
package cctk.render;
