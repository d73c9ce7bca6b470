package cctk.diagnose.verdict;

/**
 * How fast one rank computed in one pass of a diagnosis: rounds of a fixed arithmetic kernel per second of wall time
 * ({@code cctk.diagnose.probe.CpuProbe}), measured while its node's ranks, and no other node on its kernel, run. A
 * rank held back by a CPU quota, a throttled or busy core or another job on its cores computes less in the same
 * wall time, whatever its NICs do.
 *
 * @param rank   the rank (in the job)
 * @param node   its node index
 * @param leader whether it leads its node (and so drives the node's pairs over the NICs)
 * @param rate   kernel rounds per second of wall time
 */
public record CpuRate(int rank, int node, boolean leader, double rate) {
}
