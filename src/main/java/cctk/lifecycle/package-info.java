/**
 * A rank process's life and its early end: the signals that stop it (Slurm's SIGTERM at scancel and the time limit,
 * the SIGUSR1 warning the rendered script asks for), what runs before it halts, and the time limit it keeps. Used
 * by the launcher, the rank and the benchmark harness; it depends on nothing but the base package.
 */
package cctk.lifecycle;
