package cctk.bench;

/**
 * What one point costs rank 0 to learn: every rank puts its {@link MeasureStep.Result} into one vector of
 * {@code SLOTS + iterations} numbers, {@link RankReduction} combines the vectors over all ranks with {@link #RULE},
 * and every rank reads the same figures back. Slot by slot: the largest per-rank mean (the reported time) and the
 * lowest rank that had it, the summed wrong elements, whether any rank did not check, the summed fill/check time
 * and bytes, the largest per-rank mean of the first timed loop, and then the iteration times of that slowest rank,
 * which travel with it: min, p50, p99 and cv are that rank's own ({@link IterationStats}), so the reported time, its
 * mean, always lies between its min and max.
 * <b>Note:</b> threadsafe (no state).
 */
final class PointStats {

    /** Max over ranks of the per-rank mean time, µs. */
    static final int MEAN = 0;
    /** The lowest rank whose mean is {@link #MEAN}. */
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
    /** Max over ranks of the per-rank mean of the first timed loop (before any re-timing), µs. */
    static final int FIRST_MEAN = 7;
    /** Where the per-iteration times start. */
    static final int SLOTS = 8;

    /** The combination rule of the vectors. */
    static final RankReduction.Rule RULE = PointStats::combine;

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
        return SLOTS + t.length;
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
