package cctk.bench;

import cctk.results.Numbers;
import cctk.results.Result;
import cctk.results.Run;

/**
 * What one point's measurements share: the collective, type, operator, root, S and count; it makes the point's
 * {@link Result}s, figures rounded to the 6 significant digits results carry ({@link Numbers#significant}), so the
 * run judged in memory sees exactly what its files say.
 *
 * @param collective spec name
 * @param dtype      type's spec name, or null (barrier)
 * @param op         operator's spec name, or null
 * @param root       root rank, or -1
 * @param sizeBytes  S as nccl-tests counts it
 * @param count      the call's count argument
 */
record RowKey(String collective, String dtype, String op, int root, long sizeBytes, long count) {

    /** A measurement that did not happen, and why. */
    Result skipped(final Run run, final boolean inPlace, final String reason) {
        return Result.skipped(run, collective, dtype, op, root, sizeBytes, count, inPlace, reason);
    }

    /**
     * A measurement: times from {@code s}, bandwidths in GB/s, wrong elements (-1: not checked), and how the figures
     * were obtained.
     */
    Result measured(final Run run, final boolean inPlace, final IterationStats s, final double algBw,
                    final double busBw, final long wrong, final Result.Obtained how) {
        return new Result(run, collective, dtype, op, root, sizeBytes, count, inPlace, Numbers.significant(s.timeUs()),
            Numbers.significant(s.minUs()), Numbers.significant(s.p50Us()), Numbers.significant(s.p99Us()),
            Numbers.significant(s.cvPct()), Numbers.significant(algBw), Numbers.significant(busBw), wrong, null, how);
    }
}
