package cctk.report;

/**
 * One buffer layout of one row: timings are per call in microseconds; {@code timeUs} is each rank's mean
 * over the timed iterations, then the max over ranks; min/p50/p99/cv are over iterations of the per-iteration
 * max over ranks. Bandwidths in GB/s (1e9 B/s). Skipped measurements carry a reason and NaN numbers.
 *
 * @param inPlace  true for the one-buffer layout
 * @param timeUs   reported time
 * @param minUs    fastest iteration
 * @param p50Us    median iteration
 * @param p99Us    99th percentile iteration
 * @param cvPct    coefficient of variation of iterations, percent
 * @param algBw    S / time
 * @param busBw    algBw × the collective's factor
 * @param wrong    wrong elements summed over ranks and check iterations; -1 when not checked
 * @param skipped  why it was not measured, or null
 */
public record Measurement(boolean inPlace, double timeUs, double minUs, double p50Us, double p99Us, double cvPct,
                          double algBw, double busBw, long wrong, String skipped) {

    /** A measurement that did not happen, and why. */
    public static Measurement skipped(final boolean inPlace, final String reason) {
        final double n = Double.NaN;
        return new Measurement(inPlace, n, n, n, n, n, n, n, -1, reason);
    }

    public boolean measured() {
        return skipped == null;
    }
}
