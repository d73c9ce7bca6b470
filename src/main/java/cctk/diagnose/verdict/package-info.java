/**
 * The diagnosis on paper: the round-robin schedule of node pairs, the figures a diagnosis measures, the rules that
 * turn them into suspects (node, node and NIC, pair, rank) with their evidence, and its result files. No sockets,
 * no communicators: rank 0 of a diagnosis, {@code cctk report} and the tests at 2,048 simulated nodes share it.
 */
package cctk.diagnose.verdict;
