/** The harness: the sweep, warm-up, timing, the time across ranks (max or mean), correctness checks, bus bandwidth. */
package cctk.bench;
