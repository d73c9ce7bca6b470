/**
 * The job's rendezvous store: rank 0's server (keys, values, barriers, the failure it pushes to every rank), the
 * client every rank joins it with, their frames, the addresses the server listens on, and the join that proves a
 * peer holds the job's secret (HMAC-SHA256 challenge-response). A {@link cctk.comm.Store} of the communicators' own,
 * beneath the rank that uses it.
 */
package cctk.store;
