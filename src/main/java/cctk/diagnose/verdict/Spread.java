package cctk.diagnose.verdict;

/**
 * Peers' figures as a verdict holds one figure against them: their median and their median absolute deviation
 * (MAD). A figure is slow when it is below {@code threshold} × the median <em>and</em> more than {@link #NOISE}
 * MADs below it: on quiet hardware the peers agree closely and the threshold decides; where the peers themselves
 * scatter by more than the threshold (cores shared by many ranks), only a figure that stands out of the scatter
 * is named, and noise is not. Below a quarter of {@code threshold} × the median a figure is slow however much the
 * peers scatter.
 *
 * @param median the peers' median
 * @param mad    their median absolute deviation
 * @param limit  the figure below which a figure is slow
 */
public record Spread(double median, double mad, double limit) {

    /** How many MADs below the median a slow figure must also be. */
    public static final double NOISE = 3;

    /** The spread of the finite values among the first {@code n} of {@code work}, which it reorders. */
    static Spread of(final double[] work, final int n, final double threshold) {
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (Double.isFinite(work[i])) {
                work[k++] = work[i];
            }
        }
        final double median = Medians.ofScratch(work, k);
        for (int i = 0; i < k; i++) {
            work[i] = Math.abs(work[i] - median);
        }
        return of(median, Medians.ofScratch(work, k), threshold);
    }

    /** The spread of a median and MAD at {@code threshold}. */
    static Spread of(final double median, final double mad, final double threshold) {
        return new Spread(median, mad, Math.min(threshold * median, Math.max(median - NOISE * mad,
                threshold * median / 4)));
    }

    /**
     * This spread with its MAD at least {@code relative} × its median: where a test has few peers, their MAD is
     * itself noise (three healthy pairs, two close by chance), and the scatter every test of the run shows is the
     * better estimate.
     */
    Spread atLeast(final double relative, final double threshold) {
        return relative * median > mad ? of(median, relative * median, threshold) : this;
    }

    /**
     * The scatter of several tests' figures at once, relative: the MAD of every figure divided by its own test's
     * median ({@code samples[t]} against {@code medians[t]}); NaN when there are none. Of a test with an odd count
     * the median itself is left out: its deviation is zero by construction, and with three peers that is a third of
     * them, which would make the scatter look smaller than it is.
     */
    static double pooled(final double[][] samples, final double[] medians) {
        int total = 0;
        for (final double[] s : samples) {
            total += s.length;
        }
        final double[] ratios = new double[total];
        int k = 0;
        for (int t = 0; t < samples.length; t++) {
            boolean skip = samples[t].length % 2 == 1;
            for (final double v : samples[t]) {
                if (skip && v == medians[t]) {
                    skip = false;
                } else {
                    ratios[k++] = medians[t] > 0 ? v / medians[t] : Double.NaN;
                }
            }
        }
        final Spread all = of(ratios, k, 1);
        return all.median() > 0 ? all.mad() / all.median() : Double.NaN;
    }

    /** The spread of the finite values of {@code values} (not changed). */
    static Spread of(final double[] values, final double threshold) {
        return of(values.clone(), values.length, threshold);
    }

    /** Whether {@code v} is slow against these peers (never for NaN). */
    public boolean slow(final double v) {
        return v < limit;
    }
}
