package cctk.report;

import cctk.results.Result;
import java.util.List;

/**
 * How much one side's figure for a measurement could move by chance from one run to the next, as a relative
 * half-width (0.2 = ±20 %), from the best evidence the side holds ({@link Comparison.Basis}):
 * <ul>
 *   <li>several runs of the measurement: the scatter of their figures (fastest against slowest) or, when larger,
 *   the typical spread between the repeats within a run; at least {@link #RUNS_FLOOR} (3 runs or more) or
 *   {@link #TWO_RUNS_FLOOR} (2 runs, whose scatter is one difference);</li>
 *   <li>one run whose rows are medians of repeats: its spread between repeats (slowest - fastest repeat over the
 *   time), widened by {@link #REPEATS_WIDENING} and at least {@link #REPEATS_FLOOR}, as runs differ by more than
 *   the repeats within one run (other jobs, clocks and placement change between runs);</li>
 *   <li>one run without repeats: the variation between its timed iterations (the cv; or, when larger, how far the
 *   mean lies from the median), widened for few iterations by Student's t, and at least {@link #SINGLE_FLOOR}:
 *   iterations vary far less than runs do, so this is the most conservative case.</li>
 * </ul>
 * <b>Note:</b> threadsafe (no state).
 */
final class Noise {

    /** The least noise of a side with 3 or more runs. */
    static final double RUNS_FLOOR = 0.03;
    /** The least noise of a side with 2 runs. */
    static final double TWO_RUNS_FLOOR = 0.10;
    /** The least noise of one run whose rows are medians of repeats. */
    static final double REPEATS_FLOOR = 0.15;
    /** How much one run's spread between repeats is widened to stand for the difference between runs. */
    static final double REPEATS_WIDENING = 2;
    /** The least noise of one run without repeats. */
    static final double SINGLE_FLOOR = 0.25;

    /** Student's t at 97.5 % for 1 .. 10 degrees of freedom. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228};
    private static final double Z975 = 1.96;
    /** About Student's t at 97.5 % for 11 .. 29 degrees of freedom (2.20 .. 2.05). */
    private static final double T_MID = 2.1;
    /** From this many iterations on, the t factor is taken as 1. */
    private static final int MANY = 30;

    private Noise() {
    }

    /** What the noise of the runs {@code rs} (one side's runs of one measurement, at least one) rests on. */
    static Comparison.Basis basis(final List<Result> rs) {
        if (rs.size() >= 2) {
            return Comparison.Basis.RUNS;
        }
        return Double.isFinite(repeats(rs.get(0))) ? Comparison.Basis.REPEATS : Comparison.Basis.ITERATIONS;
    }

    /** The relative noise of one side's figure from its runs {@code rs} (at least one), as the class says. */
    static double side(final List<Result> rs) {
        final double within = medianRepeats(rs);
        if (rs.size() >= 2) {
            final double floor = rs.size() == 2 ? TWO_RUNS_FLOOR : RUNS_FLOOR;
            return Math.max(floor, Double.isNaN(within) ? scatter(rs) : Math.max(within, scatter(rs)));
        }
        if (!Double.isNaN(within)) {
            return Math.max(REPEATS_FLOOR, within * REPEATS_WIDENING);
        }
        final double iterations = of(rs.get(0));
        return Double.isNaN(iterations) ? SINGLE_FLOOR : Math.max(SINGLE_FLOOR, iterations);
    }

    /** How far repeated runs scatter: slowest time over fastest, less 1; 0 for one run. */
    static double scatter(final List<Result> rs) {
        final double lo = rs.stream().mapToDouble(Result::timeUs).min().orElse(Double.NaN);
        final double hi = rs.stream().mapToDouble(Result::timeUs).max().orElse(Double.NaN);
        return lo > 0 ? hi / lo - 1 : 0;
    }

    /** The median over {@code rs} of their spread between repeats, or NaN when one of them lacks it. */
    private static double medianRepeats(final List<Result> rs) {
        final double[] v = rs.stream().mapToDouble(Noise::repeats).sorted().toArray();
        if (v.length == 0 || Double.isNaN(v[v.length - 1])) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /**
     * The spread between {@code r}'s repeats relative to its time ((slowest - fastest repeat) / time), or NaN when
     * its row is not the median of 2 or more repeats or does not say.
     */
    static double repeats(final Result r) {
        final Result.Obtained how = r.how();
        if (how == null || how.repeats() < 2 || !(r.timeUs() > 0)) {
            return Double.NaN;
        }
        if (Double.isFinite(how.repeatMinUs()) && Double.isFinite(how.repeatMaxUs())) {
            return Math.max(0, how.repeatMaxUs() - how.repeatMinUs()) / r.timeUs();
        }
        return Double.isFinite(how.spreadPct()) ? Math.max(0, how.spreadPct()) / 100 : Double.NaN;
    }

    /**
     * The relative spread between {@code r}'s timed iterations (0.2 = 20 %): the larger of the cv and how far mean
     * and median lie apart, widened for few iterations; NaN when it recorded neither.
     */
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
}
