/**
 * {@code cctk diagnose}: one Slurm step in which every rank measures its node's ranks alone, then one rank per node
 * meets every other node in round-robin pairs, on each NIC and striped over all of them, and rank 0 names the slow
 * node, NIC, pair or rank ({@link cctk.diagnose.verdict}); also the command's submit-and-wait side.
 */
package cctk.diagnose;
