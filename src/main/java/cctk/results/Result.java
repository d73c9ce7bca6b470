package cctk.results;

/**
 * One measurement of a run: one row of the CSV and of the JSON's {@code rows}, as the harness makes it and as a
 * reader gets it back. Units: microseconds, GB/s (1e9 B/s), bytes. Timings are per call: {@code timeUs} is each
 * rank's mean over the timed iterations, then the max over ranks; min/p50/p99/cv are over that slowest rank's own
 * iterations (so min ≤ time). A skipped measurement carries its reason and NaN figures.
 *
 * @param run        the run it belongs to
 * @param collective spec name, e.g. {@code all_reduce}
 * @param dtype      element type, or null (barrier)
 * @param op         reduce operator, or null
 * @param root       root rank, or -1
 * @param sizeBytes  S as nccl-tests counts it
 * @param count      the count argument of the call
 * @param inPlace    true for the one-buffer layout
 * @param timeUs     time per call
 * @param minUs      fastest iteration
 * @param p50Us      median iteration
 * @param p99Us      99th percentile iteration
 * @param cvPct      coefficient of variation over iterations, percent
 * @param algBw      algorithm bandwidth
 * @param busBw      bus bandwidth
 * @param wrong      wrong elements, -1 when not checked
 * @param skipped    why it was not measured, or null
 */
public record Result(Run run, String collective, String dtype, String op, int root, long sizeBytes, long count,
                     boolean inPlace, double timeUs, double minUs, double p50Us, double p99Us, double cvPct,
                     double algBw, double busBw, long wrong, String skipped) {

    /** True when it was measured and has a time. */
    public boolean measured() {
        return skipped == null && Double.isFinite(timeUs);
    }

    /** {@code out-of-place} or {@code in-place}. */
    public String layout() {
        return inPlace ? "in-place" : "out-of-place";
    }

    /** A measurement that did not happen, and why. */
    public static Result skipped(final Run run, final String collective, final String dtype, final String op,
                                 final int root, final long sizeBytes, final long count, final boolean inPlace,
                                 final String reason) {
        final double n = Double.NaN;
        return new Result(run, collective, dtype, op, root, sizeBytes, count, inPlace, n, n, n, n, n, n, n, -1,
            reason);
    }

    /** The same measurement in another run (the run's end recorded, or read from another file). */
    public Result in(final Run other) {
        return new Result(other, collective, dtype, op, root, sizeBytes, count, inPlace, timeUs, minUs, p50Us, p99Us,
            cvPct, algBw, busBw, wrong, skipped);
    }
}
