package cctk.bench;

import cctk.spec.Benchmark.TimeAcrossRanks;

/**
 * What one point costs rank 0 to learn: every rank puts its {@link MeasureStep.Result} into one vector of
 * {@code SLOTS + iterations} numbers, {@link RankReduction} combines the vectors over all ranks with
 * {@link #rule}, {@link #finish} completes them, and every rank reads the same figures back. Slot by slot: the
 * reported time and the rank it came from, the summed wrong elements, whether any rank did not check, the summed
 * fill/check time and bytes, the first timed loop's time, the number of ranks, and then the iteration times.
 * The time across ranks ({@link TimeAcrossRanks}) decides the time and the iterations:
 * <ul>
 *   <li>{@code max}: the largest per-rank mean and the lowest rank that had it, whose own iteration times travel
 *       with it: min, p50, p99 and cv are that slowest rank's ({@link IterationStats});</li>
 *   <li>{@code mean}: the mean over ranks of the per-rank means (nccl-tests' default), and iteration by iteration
 *       the mean over ranks of that iteration's time: min, p50, p99 and cv are over those means.</li>
 * </ul>
 * Either way the reported time is the mean of the iterations it reports, so it lies between their min and max.
 * <b>Note:</b> threadsafe (no state).
 */
final class PointStats {

    /** The time across ranks, µs: the max, or (once {@link #finish}ed) the mean over ranks of the per-rank means. */
    static final int MEAN = 0;
    /** max: the lowest rank whose mean is {@link #MEAN}; mean: the lowest rank (0). */
    static final int SLOWEST = 1;
    /** Sum over ranks of wrong elements. */
    static final int WRONG = 2;
    /** 1 when any rank did not check, else 0. */
    static final int UNCHECKED = 3;
    /** Sum over ranks of the time spent filling, poisoning and checking, ns. */
    static final int DATA_NANOS = 4;
    /** Sum over ranks of the bytes filled, poisoned and checked. */
    static final int DATA_BYTES = 5;
    /** Sum over ranks of the bytes checked. */
    static final int CHECKED_BYTES = 6;
    /** The per-rank mean of the first timed loop (before any re-timing) across ranks, as {@link #MEAN}, µs. */
    static final int FIRST_MEAN = 7;
    /** The ranks combined. */
    static final int RANKS = 8;
    /** Where the per-iteration times start. */
    static final int SLOTS = 9;

    /** The combination rule of the vectors: the max over ranks. */
    static final RankReduction.Rule RULE = PointStats::combine;
    /** The combination rule of the vectors: the sums that the mean over ranks divides ({@link #finish}). */
    static final RankReduction.Rule SUM_RULE = PointStats::sum;

    private PointStats() {
    }

    /** Writes {@code r} of {@code rank} into {@code v}; returns the vector's length. */
    static int encode(final MeasureStep.Result r, final int rank, final double[] v) {
        final double[] t = r.timesUs();
        double sum = 0;
        for (int k = 0; k < t.length; k++) {
            sum += t[k];
            v[SLOTS + k] = t[k];
        }
        v[MEAN] = sum / t.length;
        v[SLOWEST] = rank;
        v[WRONG] = Math.max(0, r.wrong());
        v[UNCHECKED] = r.wrong() < 0 ? 1 : 0;
        v[DATA_NANOS] = r.fillCheckNanos();
        v[DATA_BYTES] = r.dataBytes();
        v[CHECKED_BYTES] = r.checkedBytes();
        v[FIRST_MEAN] = r.firstMeanUs();
        v[RANKS] = 1;
        return SLOTS + t.length;
    }

    /** Combines every rank's first {@code length} numbers of {@code v} by {@code reduction}, for {@code across}. */
    static void overRanks(final RankReduction reduction, final double[] v, final int length,
                          final TimeAcrossRanks across) {
        reduction.allReduce(v, length, rule(across));
        finish(v, length, across);
    }

    /** The rule that combines the vectors for {@code across}. */
    static RankReduction.Rule rule(final TimeAcrossRanks across) {
        return across == TimeAcrossRanks.MEAN ? SUM_RULE : RULE;
    }

    /** Completes a combined vector of {@code length} numbers: for the mean over ranks, divides the sums by W. */
    static void finish(final double[] v, final int length, final TimeAcrossRanks across) {
        if (across != TimeAcrossRanks.MEAN) {
            return;
        }
        final double ranks = v[RANKS];
        v[MEAN] /= ranks;
        v[FIRST_MEAN] /= ranks;
        for (int i = SLOTS; i < length; i++) {
            v[i] /= ranks;
        }
    }

    /** {@code into = into ∘ other}: commutative and associative, so every rank ends with the same numbers. */
    static void combine(final double[] into, final double[] other, final int length) {
        if (other[MEAN] > into[MEAN] || other[MEAN] == into[MEAN] && other[SLOWEST] < into[SLOWEST]) {
            into[MEAN] = other[MEAN];
            into[SLOWEST] = other[SLOWEST];
            System.arraycopy(other, SLOTS, into, SLOTS, length - SLOTS);
        }
        into[WRONG] += other[WRONG];
        into[UNCHECKED] = Math.max(into[UNCHECKED], other[UNCHECKED]);
        into[DATA_NANOS] += other[DATA_NANOS];
        into[DATA_BYTES] += other[DATA_BYTES];
        into[CHECKED_BYTES] += other[CHECKED_BYTES];
        into[FIRST_MEAN] = Math.max(into[FIRST_MEAN], other[FIRST_MEAN]);
        into[RANKS] += other[RANKS];
    }

    /** {@code into = into + other} for the mean over ranks: times summed, the rest as {@link #combine}. */
    static void sum(final double[] into, final double[] other, final int length) {
        into[MEAN] += other[MEAN];
        into[SLOWEST] = Math.min(into[SLOWEST], other[SLOWEST]);
        for (int i = SLOTS; i < length; i++) {
            into[i] += other[i];
        }
        into[WRONG] += other[WRONG];
        into[UNCHECKED] = Math.max(into[UNCHECKED], other[UNCHECKED]);
        into[DATA_NANOS] += other[DATA_NANOS];
        into[DATA_BYTES] += other[DATA_BYTES];
        into[CHECKED_BYTES] += other[CHECKED_BYTES];
        into[FIRST_MEAN] += other[FIRST_MEAN];
        into[RANKS] += other[RANKS];
    }

    /** The row's time figures from a combined vector of {@code length} numbers. */
    static IterationStats stats(final double[] v, final int length) {
        final double[] slowest = new double[length - SLOTS];
        System.arraycopy(v, SLOTS, slowest, 0, slowest.length);
        return IterationStats.of(slowest, v[MEAN]);
    }

    /** The row's wrong elements from a combined vector: -1 when a rank did not check. */
    static long wrong(final double[] v) {
        return v[UNCHECKED] > 0 ? -1 : (long) v[WRONG];
    }
}
