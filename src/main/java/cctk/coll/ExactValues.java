package cctk.coll;

import cctk.comm.DType;
import cctk.comm.ReduceOp;

/**
 * Input values whose results are exact in every reduction order and every type, and those results in closed
 * form, as functions of an element's phase u (0 ≤ u &lt; P, see {@link Period}): one period of every input and
 * result costs O(P) to compute, whatever the world size. Pseudo-random choices come from {@link #pick}, a
 * SplitMix64 hash of (seed, u, what is chosen), so neighbouring phases look unrelated.
 * <ul>
 * <li>data (no reduction): 0..100: exact in every type.</li>
 * <li>sum: a window of m = min(W, 64) ranks per phase contributes, starting at the rank d = 0 with
 *     d = (rank - u - seed) mod W: that rank gives f in 1..160-(m-1)e', the m-1 others each give the same
 *     e in 1..e' (e' = 80/(m-1), at least 1), the rest 0. Every rank in the window adds at least 1, so a dropped
 *     or doubled contribution shows; every partial sum is an integer ≤ 160, exact even in bfloat16's 8-bit
 *     significand; integer types wrap deterministically.</li>
 * <li>prod: the rank at d = 0 gives an odd o in 1..127, the next a ≤ min(W - 1, 8) ranks give 2, the rest 1:
 *     the product o·2^a ≤ 32512 is exact in float16 and bfloat16 (o needs at most 7 significant bits), and
 *     every partial product too; integer types wrap (2^8 is 0 in 8 bits).</li>
 * <li>min/max: g + min(d, 63), g in -32..31 (uint8: 0..63); in -32..126, so int8 and uint8 hold it.</li>
 * <li>avg, integers: the sum inputs; expected = wrapped sum / W truncated, as NCCL divides after summing.
 *     avg, floating: a ± 1 pairs that sum to W·a, a in 1..16; a pre-multiplying backend rounds, so the check
 *     allows (W + 2) units in the last place of max(1, |a|) (see {@link #tolerance}).</li>
 * </ul>
 * No expected value of an 8-bit type is 165 (-91 as int8), the byte a check poisons outputs with, and no value of
 * a floating type is near the poison's tiny or negative values, so a call that writes nothing is wrong at every
 * element (sums stay ≤ 160 for that reason). The exception is floating avg once its tolerance reaches a (W ≥ 126
 * in bfloat16, W ≥ 1022 in float16): there the tolerance rule itself accepts values near 0.
 */
public final class ExactValues {

    /** Ranks per element that contribute to a sum: keeps partial sums exact in bfloat16. */
    static final int SUM_WINDOW = 64;
    /** Largest sum: below 256 (exact in bfloat16) and below 165 (the poison byte as uint8). */
    static final int SUM_LIMIT = 160;
    /** Most factors of 2 in a product: 2^8 is exact in float16, wraps to 0 in int8. */
    static final int PROD_TWOS = 8;
    /** Odd factors 1, 3 .. 127 of a product: at most 7 significant bits, positive in int8. */
    private static final int PROD_ODDS = 64;
    private static final int AVG_BASES = 16;
    private static final int MINMAX_SPAN = 63;
    private static final int MINMAX_BASES = 64;
    private static final int DATA_VALUES = 101;
    private static final int SALT_DATA = 1;
    private static final int SALT_FIRST = 2;
    private static final int SALT_EACH = 3;
    private static final int SALT_TWOS = 4;
    private static final int SALT_ODD = 5;
    private static final int SALT_MIN = 6;
    private static final int SALT_AVG = 7;

    private ExactValues() {
    }

    /** Data (no reduction) at phase {@code u}: 0..100. */
    public static double data(final long u, final int seed) {
        return pick(seed, u, SALT_DATA, DATA_VALUES);
    }

    /** Rank {@code rank}'s input at phase {@code u} of a reduction. */
    public static double input(final ReduceOp op, final DType type, final int world, final int rank,
                               final long u, final int seed) {
        final long d = Math.floorMod(rank - u - seed, (long) world);
        return switch (op) {
            case SUM -> sumInput(world, d, u, seed);
            case AVG -> type.floating() ? avgInput(world, rank, u, seed) : sumInput(world, d, u, seed);
            case PROD -> prodInput(world, d, u, seed);
            case MIN, MAX -> minBase(type, u, seed) + Math.min(d, MINMAX_SPAN);
        };
    }

    /** The exact result of reducing phase {@code u} over all ranks. */
    public static double reduced(final ReduceOp op, final DType type, final int world, final long u,
                                 final int seed) {
        return switch (op) {
            case SUM -> Elements.wrap(type, sum(world, u, seed));
            case AVG -> type.floating() ? avgBase(u, seed) : integerAvg(type, world, u, seed);
            case PROD -> Elements.wrap(type, product(world, u, seed));
            case MIN -> minBase(type, u, seed);
            case MAX -> minBase(type, u, seed) + Math.min(world - 1, MINMAX_SPAN);
        };
    }

    /** How far a result may lie from {@code expected}: 0 except for floating avg. */
    public static double tolerance(final ReduceOp op, final DType type, final int world, final double expected) {
        if (op != ReduceOp.AVG || !type.floating()) {
            return 0;
        }
        return (world + 2) * Math.max(1.0, Math.abs(expected)) * Math.scalb(1.0, -Elements.mantissaBits(type));
    }

    /**
     * A pseudo-random number in 0..n-1 for (seed, u, salt): the SplitMix64 finalizer (Steele, Lea and Flood,
     * "Fast splittable pseudorandom number generators", OOPSLA 2014) of a linear mix of the three.
     */
    static int pick(final int seed, final long u, final int salt, final int n) {
        long z = seed * 0x9E3779B97F4A7C15L + u * 0xD1B54A32D192ED03L + salt * 0x8CB92BA72F3D8DD7L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return (int) Math.floorMod(z ^ (z >>> 31), (long) n);
    }

    private static int window(final int world) {
        return Math.min(world, SUM_WINDOW);
    }

    /** The most each window rank but the first adds: e'. */
    private static int eachMax(final int m) {
        return m > 1 ? Math.max(1, SUM_LIMIT / 2 / (m - 1)) : 0;
    }

    private static long first(final int m, final long u, final int seed) {
        return 1 + pick(seed, u, SALT_FIRST, SUM_LIMIT - (m - 1) * eachMax(m));
    }

    private static long each(final int m, final long u, final int seed) {
        return m > 1 ? 1 + pick(seed, u, SALT_EACH, eachMax(m)) : 0;
    }

    private static double sumInput(final int world, final long d, final long u, final int seed) {
        final int m = window(world);
        if (d == 0) {
            return first(m, u, seed);
        }
        return d < m ? each(m, u, seed) : 0;
    }

    private static long sum(final int world, final long u, final int seed) {
        final int m = window(world);
        return first(m, u, seed) + (m - 1) * each(m, u, seed);
    }

    private static double integerAvg(final DType type, final int world, final long u, final int seed) {
        final long wrapped = (long) Elements.wrap(type, sum(world, u, seed));
        return wrapped / world;
    }

    private static double avgBase(final long u, final int seed) {
        return 1 + pick(seed, u, SALT_AVG, AVG_BASES);
    }

    /** a+1 on even ranks that have an odd partner, a-1 on odd ranks, a on a last unpaired rank. */
    private static double avgInput(final int world, final int rank, final long u, final int seed) {
        final double a = avgBase(u, seed);
        if (rank % 2 == 1) {
            return a - 1;
        }
        return rank + 1 < world ? a + 1 : a;
    }

    private static int twos(final int world, final long u, final int seed) {
        return pick(seed, u, SALT_TWOS, Math.min(world - 1, PROD_TWOS) + 1);
    }

    private static long odd(final long u, final int seed) {
        return 2L * pick(seed, u, SALT_ODD, PROD_ODDS) + 1;
    }

    private static double prodInput(final int world, final long d, final long u, final int seed) {
        if (d == 0) {
            return odd(u, seed);
        }
        return d <= twos(world, u, seed) ? 2 : 1;
    }

    private static long product(final int world, final long u, final int seed) {
        return odd(u, seed) << twos(world, u, seed);
    }

    private static double minBase(final DType type, final long u, final int seed) {
        return pick(seed, u, SALT_MIN, MINMAX_BASES) - (type == DType.UINT8 ? 0 : MINMAX_BASES / 2);
    }
}
