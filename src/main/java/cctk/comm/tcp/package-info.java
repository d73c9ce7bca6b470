/** The CPU backend: collectives over TCP sockets between ranks, Gloo's role, allocation-free on the hot path. */
package cctk.comm.tcp;
