/** The harness: the sweep, warm-up, timing, the max over ranks, correctness checks, bus bandwidth. */
package cctk.bench;
