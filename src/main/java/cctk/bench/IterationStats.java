package cctk.bench;

import java.util.Arrays;
import java.util.List;

/**
 * Combines per-rank, per-iteration times (µs) into what a row reports: the max over ranks of each rank's
 * mean (the reported time), and min, p50, p99 and cv over the per-iteration max over ranks.
 *
 * @param timeUs max over ranks of the per-rank mean
 * @param minUs  fastest iteration (of per-iteration maxima)
 * @param p50Us  median, nearest rank
 * @param p99Us  99th percentile, nearest rank
 * @param cvPct  standard deviation / mean, percent
 */
record IterationStats(double timeUs, double minUs, double p50Us, double p99Us, double cvPct) {

    static IterationStats of(final List<double[]> perRank) {
        final int n = perRank.get(0).length;
        final double[] slowest = new double[n];
        double worstMean = 0;
        for (final double[] t : perRank) {
            double sum = 0;
            for (int k = 0; k < n; k++) {
                sum += t[k];
                slowest[k] = Math.max(slowest[k], t[k]);
            }
            worstMean = Math.max(worstMean, sum / n);
        }
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
