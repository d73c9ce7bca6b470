/**
 * One small class per collective (byte counts, the blocks and origins of its buffers, bus-bandwidth factor), and the
 * verifiable pattern they share: values as functions of a phase, a prime period rotated per tile, bulk fill and check.
 */
package cctk.coll;
