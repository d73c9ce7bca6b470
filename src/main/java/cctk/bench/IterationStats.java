package cctk.bench;

import cctk.spec.Benchmark.TimeAcrossRanks;
import java.util.Arrays;
import java.util.List;

/**
 * Combines per-rank, per-iteration times (µs) into what a row reports. Every rank's time is its mean per call over
 * its timed iterations; the time across ranks ({@link TimeAcrossRanks}, {@code benchmark.time_across_ranks}) is
 * then either
 * <ul>
 *   <li>{@code max} (the default): the largest per-rank mean, the slowest rank's, what a job waits for; min, p50,
 *       p99 and cv are over that slowest rank's own iterations; or</li>
 *   <li>{@code mean}: the mean over ranks of the per-rank means, as nccl-tests reports by default (its
 *       {@code -a 1}: src/common.cu sums the ranks' loop times per call and divides by their number); min, p50,
 *       p99 and cv are over the iterations' means over ranks.</li>
 * </ul>
 * Either way min ≤ time ≤ max, whatever the ranks did. On a balanced job the two agree; where one rank lags, max
 * shows it and mean averages it away.
 *
 * @param timeUs the time across ranks of the per-rank means
 * @param minUs  the fastest iteration (of the slowest rank, or of the means over ranks)
 * @param p50Us  median, nearest rank
 * @param p99Us  99th percentile, nearest rank
 * @param cvPct  standard deviation / mean, percent
 */
record IterationStats(double timeUs, double minUs, double p50Us, double p99Us, double cvPct) {

    /** The figures of per-rank, per-iteration times with the max over ranks ({@link #of(List, TimeAcrossRanks)}). */
    static IterationStats of(final List<double[]> perRank) {
        return of(perRank, TimeAcrossRanks.MAX);
    }

    /** The figures of per-rank, per-iteration times, as the ranks' reduction ({@link PointStats}) makes them. */
    static IterationStats of(final List<double[]> perRank, final TimeAcrossRanks across) {
        final int n = perRank.get(0).length;
        final double[] v = new double[PointStats.SLOTS + n];
        final double[] other = new double[v.length];
        for (int r = 0; r < perRank.size(); r++) {
            PointStats.encode(MeasureStep.Result.of(perRank.get(r), 0), r, r == 0 ? v : other);
            if (r > 0) {
                PointStats.rule(across).combine(v, other, v.length);
            }
        }
        PointStats.finish(v, v.length, across);
        return PointStats.stats(v, v.length);
    }

    /** The figures from the iterations a row reports and their mean (the time across ranks). */
    static IterationStats of(final double[] slowest, final double worstMean) {
        final int n = slowest.length;
        double mean = 0;
        for (final double t : slowest) {
            mean += t;
        }
        mean /= n;
        double var = 0;
        for (final double t : slowest) {
            var += (t - mean) * (t - mean);
        }
        final double cv = n > 1 && mean > 0 ? 100 * Math.sqrt(var / (n - 1)) / mean : 0;
        final double[] sorted = slowest.clone();
        Arrays.sort(sorted);
        return new IterationStats(worstMean, sorted[0], percentile(sorted, 0.50), percentile(sorted, 0.99), cv);
    }

    /** The median of {@code values} (of an even number, the lower middle one); NaN when empty. */
    static double median(final double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        return percentile(sorted, 0.50);
    }

    /** The {@code p}-th quantile of {@code sorted} (nearest rank). */
    static double percentile(final double[] sorted, final double p) {
        final int idx = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, idx))];
    }
}
