package cctk.report;

import cctk.results.Result;

/**
 * How much one measurement's figure could move by chance, from what it recorded: the variation between its timed
 * iterations (the coefficient of variation; or, when larger, how far the mean lies from the median, which a few slow
 * iterations push apart), widened when the iterations were few (the cv of 3 iterations is itself a rough guess: by
 * Student's t at 95 % over the normal's 1.96). This is the spread of single iterations, not the standard error of the
 * mean: two runs of the same thing differ by more than their standard errors allow, as other jobs, clocks and
 * placement change between runs but not between the iterations of one run.
 * <b>Note:</b> threadsafe (no state).
 */
final class Noise {

    /** Student's t at 97.5 % for 1 .. 10 degrees of freedom. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228};
    private static final double Z975 = 1.96;
    /** About Student's t at 97.5 % for 11 .. 29 degrees of freedom (2.20 .. 2.05). */
    private static final double T_MID = 2.1;
    /** From this many iterations on, the t factor is taken as 1. */
    private static final int MANY = 30;

    private Noise() {
    }

    /** The relative spread of {@code r} (0.2 = 20 %), or NaN when it recorded none (no cv and no median). */
    static double of(final Result r) {
        final double cv = r.cvPct() / 100;
        final double skew = r.p50Us() > 0 ? Math.abs(r.timeUs() / r.p50Us() - 1) : Double.NaN;
        final double s = Double.isFinite(cv) && Double.isFinite(skew) ? Math.max(cv, skew)
            : Double.isFinite(cv) ? cv : skew;
        return Double.isFinite(s) ? s * widening(iterations(r)) : Double.NaN;
    }

    /** The timed iterations of {@code r}'s run ({@code iters} of its arguments), or 0 when unknown. */
    static long iterations(final Result r) {
        return r.run().args().get("iters") instanceof Number n && n.longValue() > 0 ? n.longValue() : 0;
    }

    /** The factor a spread measured over {@code n} iterations is widened by (1 when unknown or many). */
    static double widening(final long n) {
        if (n < 2) {
            return n == 1 ? T975[0] / Z975 : 1;
        }
        return n - 1 <= T975.length ? T975[(int) n - 2] / Z975 : n >= MANY ? 1 : T_MID / Z975;
    }

    /**
     * The spread of the ratio of two measurements: the root of the sum of their squares; a side that recorded none
     * counts as much as the other; NaN when neither did.
     */
    static double combined(final Result a, final Result b) {
        final double sa = of(a);
        final double sb = of(b);
        if (Double.isNaN(sa) && Double.isNaN(sb)) {
            return Double.NaN;
        }
        final double x = Double.isNaN(sa) ? sb : sa;
        final double y = Double.isNaN(sb) ? sa : sb;
        return Math.sqrt(x * x + y * y);
    }
}
