package cctk.results;

/**
 * One measurement of a run: one row of the CSV and of the JSON's {@code rows}, as the harness makes it and as a
 * reader gets it back. Units: microseconds, GB/s (1e9 B/s), bytes. Timings are per call: {@code timeUs} is each
 * rank's mean over the timed iterations, then the max over ranks (min/p50/p99/cv over that slowest rank's own
 * iterations) or the mean over ranks (min/p50/p99/cv over each iteration's mean over ranks), as
 * {@link Obtained#timeAcrossRanks} says; either way min ≤ time. A skipped measurement carries its reason and NaN
 * figures.
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
 * @param how        how the figures were obtained: repeats, attempts, spread between repeats, the first attempts'
 *                   figure ({@link Obtained#UNKNOWN} where the file does not say: nccl-tests, older cctk)
 */
public record Result(Run run, String collective, String dtype, String op, int root, long sizeBytes, long count,
                     boolean inPlace, double timeUs, double minUs, double p50Us, double p99Us, double cvPct,
                     double algBw, double busBw, long wrong, String skipped, Obtained how) {

    /**
     * How a row's figures were obtained. A point is timed {@code repeats} times in separate timed loops, interleaved
     * with the other points of its size; each repeat's figure is the max or the mean over ranks of the per-rank mean
     * ({@code timeAcrossRanks}), and the row's time is the median repeat's (of an even number, the slower of the two
     * middle ones). A repeat's loop is timed again when a JIT compile or a collection ran on some rank while it ran
     * (unless re-timing is off), so {@code attempts} counts every timed loop of the row.
     *
     * @param repeats     timed repeats the figure is the median of (0: unknown)
     * @param iters       timed iterations in the median repeat's loop: the spec's {@code iters}, or more where a loop
     *                    that short would last less than {@code benchmark.window_ms} (0: unknown)
     * @param attempts    timed loops run for the row, re-timed ones included (0: unknown)
     * @param spreadPct   (slowest - fastest repeat) / the row's time, percent; NaN with one repeat or unknown
     * @param repeatMinUs the fastest repeat's time, NaN when unknown
     * @param repeatMaxUs the slowest repeat's time, NaN when unknown
     * @param firstTimeUs the median over repeats of each repeat's first attempt: the time with no re-timing
     * @param retimed     why loops were timed again ({@code "jit 2, gc 1, short 1, machine 1"}: a compile, a
     *                    collection, a loop whose median call filled less than half its window, the size measured
     *                    again as the machine moved; {@code "; 1 disturbed repeat left out"} when a repeat was still
     *                    disturbed on its last attempt and was replaced by one more, {@code "; 3 kept disturbed"} when
     *                    no undisturbed repeat was left), or null when none was
     * @param timeAcrossRanks how a repeat's time was made of the ranks' means per call: {@code max} (the slowest
     *                    rank's) or {@code mean} (their mean, nccl-tests' default); null when the file does not say
     *                    (cctk before it could choose: max)
     * @param crossCoreUs the machine as the row was measured: rank 0's 1 MiB round trip between two of its cores (µs)
     *                    taken right after the row's size was measured ({@code cctk.bench.MachineWatch}); a size
     *                    during which it moved more than 2x was measured again. NaN where none was taken (one CPU,
     *                    nccl, older files)
     */
    public record Obtained(int repeats, int iters, int attempts, double spreadPct, double repeatMinUs,
                           double repeatMaxUs, double firstTimeUs, String retimed, String timeAcrossRanks,
                           double crossCoreUs) {

        /** What a file that does not record it says: nothing. */
        public static final Obtained UNKNOWN = new Obtained(0, 0, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            null, null);

        /** Figures whose time across ranks the file does not say. */
        public Obtained(final int repeats, final int iters, final int attempts, final double spreadPct,
                        final double repeatMinUs, final double repeatMaxUs, final double firstTimeUs,
                        final String retimed) {
            this(repeats, iters, attempts, spreadPct, repeatMinUs, repeatMaxUs, firstTimeUs, retimed, null);
        }

        /** Figures without a reading of the machine. */
        public Obtained(final int repeats, final int iters, final int attempts, final double spreadPct,
                        final double repeatMinUs, final double repeatMaxUs, final double firstTimeUs,
                        final String retimed, final String timeAcrossRanks) {
            this(repeats, iters, attempts, spreadPct, repeatMinUs, repeatMaxUs, firstTimeUs, retimed, timeAcrossRanks,
                Double.NaN);
        }

        /** True when the file recorded how the row was obtained. */
        public boolean known() {
            return repeats > 0;
        }
    }

    /** A row whose file does not say how it was obtained (nccl-tests, cctk before repeats). */
    public Result(final Run run, final String collective, final String dtype, final String op, final int root,
                  final long sizeBytes, final long count, final boolean inPlace, final double timeUs,
                  final double minUs, final double p50Us, final double p99Us, final double cvPct, final double algBw,
                  final double busBw, final long wrong, final String skipped) {
        this(run, collective, dtype, op, root, sizeBytes, count, inPlace, timeUs, minUs, p50Us, p99Us, cvPct, algBw,
            busBw, wrong, skipped, Obtained.UNKNOWN);
    }

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
            cvPct, algBw, busBw, wrong, skipped, how);
    }
}
