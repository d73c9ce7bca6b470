package cctk.analysis;

/**
 * One measurement read back from a result file, in the units of cctk's CSV: microseconds, GB/s (1e9 B/s), bytes.
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
}
