package cctk.coll;

import cctk.comm.DType;
import cctk.comm.ReduceOp;

/**
 * One call to make and check: type, operator, who, and which data pattern.
 *
 * @param type   element type
 * @param op     reduce operator, null for collectives that don't reduce
 * @param world  ranks
 * @param rank   this rank
 * @param root   root of rooted collectives
 * @param seed   selects the input pattern (0 for timing, 1.. for check iterations)
 * @param layout byte counts for this rank
 */
public record Case(DType type, ReduceOp op, int world, int rank, int root, int seed, Layout layout) {
}
