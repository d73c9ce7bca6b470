/**
 * {@code cctk diagnose}, its rank side: what every rank of a diagnosing job runs, in one Slurm step. It joins the
 * job's store, opens its tcp links (a node's ranks over loopback, two node leaders over one NIC or all of them),
 * measures every node's ranks alone, then one rank per node meets every other node in round-robin pairs, and hands
 * its figures to rank 0's coordinator ({@link cctk.diagnose}), which names the slow node, NIC, pair or rank
 * ({@link cctk.diagnose.verdict}). The measuring uses the sweep's JIT clock and vote ({@link cctk.bench}).
 */
package cctk.diagnose.probe;
