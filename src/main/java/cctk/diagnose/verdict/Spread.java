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
        final double mad = Medians.ofScratch(work, k);
        final double limit = Math.min(threshold * median, Math.max(median - NOISE * mad, threshold * median / 4));
        return new Spread(median, mad, limit);
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
