package cctk.coll;

import cctk.comm.DType;
import cctk.comm.ReduceOp;

/**
 * Input values whose results are exact in every reduction order and every type, and those results
 * in closed form, so checking costs O(1) per element whatever the world size.
 * <ul>
 * <li>data (no reduction): {@code (31 rank + 7 i + 13 seed) mod 101}, 0..100: exact in every type.</li>
 * <li>sum: within a window of m = min(W, 64) ranks per element, 1..3, else 0: every partial sum is an
 *     integer ≤ 192, exact even in bfloat16's 8-bit significand; integer types wrap deterministically.</li>
 * <li>prod: j ranks give 2, the rest 1, j ≤ min(W, 8): the product 2^j is exact (and wraps to 0 in 8 bits).</li>
 * <li>min/max: g(i) + min(d, 63), d a rank's distance; in -16..78, so int8 and uint8 hold it.</li>
 * <li>avg, integers: the sum inputs; expected = wrapped sum / W truncated, as NCCL divides after summing.
 *     avg, floating: a ± 1 pairs that sum to W·a; a pre-multiplying backend rounds, so the check allows
 *     (W + 2) units in the last place of max(1, |a|) (see {@link #tolerance}).</li>
 * </ul>
 */
public final class Pattern {

    /** Ranks per element that contribute to a sum: keeps partial sums exact in bfloat16. */
    static final int SUM_WINDOW = 64;
    /** Most factors of 2 in a product: 2^8 is exact in float16, wraps to 0 in int8. */
    static final int PROD_TWOS = 8;
    private static final int MINMAX_SPAN = 63;

    private Pattern() {
    }

    /** A value of rank {@code rank}'s data at element {@code i}: 0..100. */
    public static double data(final int rank, final long i, final int seed) {
        return Math.floorMod(31L * rank + 7L * i + 13L * seed, 101L);
    }

    /** Rank {@code rank}'s input at element {@code i} of a reduction. */
    public static double input(final ReduceOp op, final DType type, final int world, final int rank,
                               final long i, final int seed) {
        final long d = Math.floorMod(rank - i - seed, (long) world);
        return switch (op) {
            case SUM -> sumInput(world, d, i, seed);
            case AVG -> type.floating() ? avgInput(world, rank, i, seed) : sumInput(world, d, i, seed);
            case PROD -> d < twos(world, i, seed) ? 2 : 1;
            case MIN, MAX -> minBase(type, i, seed) + Math.min(d, MINMAX_SPAN);
        };
    }

    /** The exact result of reducing element {@code i} over all ranks. */
    public static double reduced(final ReduceOp op, final DType type, final int world, final long i,
                                 final int seed) {
        return switch (op) {
            case SUM -> Elements.wrap(type, sum(world, i, seed));
            case AVG -> type.floating() ? avgBase(i, seed) : integerAvg(type, world, i, seed);
            case PROD -> Elements.wrap(type, 1L << twos(world, i, seed));
            case MIN -> minBase(type, i, seed);
            case MAX -> minBase(type, i, seed) + Math.min(world - 1, MINMAX_SPAN);
        };
    }

    /** How far a result may lie from {@code expected}: 0 except for floating avg. */
    public static double tolerance(final ReduceOp op, final DType type, final int world, final double expected) {
        if (op != ReduceOp.AVG || !type.floating()) {
            return 0;
        }
        return (world + 2) * Math.max(1.0, Math.abs(expected)) * Math.scalb(1.0, -Elements.mantissaBits(type));
    }

    private static double sumInput(final int world, final long d, final long i, final int seed) {
        return d < Math.min(world, SUM_WINDOW) ? 1 + Math.floorMod(d + i + seed, 3L) : 0;
    }

    private static long sum(final int world, final long i, final int seed) {
        final long m = Math.min(world, SUM_WINDOW);
        final long c = Math.floorMod(i + seed, 3L);
        long s = m + 3 * (m / 3);
        for (long e = 0; e < m % 3; e++) {
            s += (e + c) % 3;
        }
        return s;
    }

    private static double integerAvg(final DType type, final int world, final long i, final int seed) {
        final long wrapped = (long) Elements.wrap(type, sum(world, i, seed));
        return wrapped / world;
    }

    private static double avgBase(final long i, final int seed) {
        return 1 + Math.floorMod(i + seed, 4L);
    }

    /** a+1 on even ranks that have an odd partner, a-1 on odd ranks, a on a last unpaired rank. */
    private static double avgInput(final int world, final int rank, final long i, final int seed) {
        final double a = avgBase(i, seed);
        if (rank % 2 == 1) {
            return a - 1;
        }
        return rank + 1 < world ? a + 1 : a;
    }

    private static long twos(final int world, final long i, final int seed) {
        return Math.floorMod(i + seed, (long) Math.min(world, PROD_TWOS) + 1);
    }

    private static double minBase(final DType type, final long i, final int seed) {
        return Math.floorMod(7L * i + seed, 32L) - (type == DType.UINT8 ? 0 : 16);
    }
}
