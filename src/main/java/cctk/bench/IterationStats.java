package cctk.bench;

import java.util.Arrays;
import java.util.List;

/**
 * Combines per-rank, per-iteration times (µs) into what a row reports: the max over ranks of each rank's
 * mean (the reported time, nccl-tests' definition), and min, p50, p99 and cv over that slowest rank's own iterations
 * (so min ≤ time ≤ max, whatever the other ranks did).
 *
 * @param timeUs max over ranks of the per-rank mean
 * @param minUs  the slowest rank's fastest iteration
 * @param p50Us  median, nearest rank
 * @param p99Us  99th percentile, nearest rank
 * @param cvPct  standard deviation / mean, percent
 */
record IterationStats(double timeUs, double minUs, double p50Us, double p99Us, double cvPct) {

    /** The figures of per-rank, per-iteration times, as the ranks' reduction ({@link PointStats}) makes them. */
    static IterationStats of(final List<double[]> perRank) {
        final int n = perRank.get(0).length;
        final double[] v = new double[PointStats.SLOTS + n];
        final double[] other = new double[v.length];
        for (int r = 0; r < perRank.size(); r++) {
            PointStats.encode(MeasureStep.Result.of(perRank.get(r), 0), r, r == 0 ? v : other);
            if (r > 0) {
                PointStats.combine(v, other, v.length);
            }
        }
        return PointStats.stats(v, v.length);
    }

    /** The figures from the slowest rank's iterations and its mean (the largest per-rank mean). */
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

    static double percentile(final double[] sorted, final double p) {
        final int idx = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, idx))];
    }
}
