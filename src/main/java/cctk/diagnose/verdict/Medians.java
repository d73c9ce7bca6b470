package cctk.diagnose.verdict;

/**
 * Medians of the finite values of an array in expected linear time (Hoare's selection), so that a reference over
 * two million pair figures costs milliseconds, not a sort. NaN marks "not measured" and is left out.
 * <b>Note:</b> threadsafe (no state).
 */
public final class Medians {

    private Medians() {
    }

    /** The median of the finite values of {@code values} (mean of the middle two for an even count); NaN if none. */
    public static double of(final double[] values) {
        return of(values, values.length);
    }

    /** The median of the finite values among the first {@code length} of {@code values}; the array is not changed. */
    public static double of(final double[] values, final int length) {
        final double[] work = new double[length];
        int n = 0;
        for (int i = 0; i < length; i++) {
            if (Double.isFinite(values[i])) {
                work[n++] = values[i];
            }
        }
        return ofScratch(work, n);
    }

    /** The median of the first {@code n} values of {@code work}, which it reorders. */
    static double ofScratch(final double[] work, final int n) {
        if (n == 0) {
            return Double.NaN;
        }
        final double upper = select(work, n, n / 2);
        if (n % 2 == 1) {
            return upper;
        }
        double lower = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n / 2; i++) {
            lower = Math.max(lower, work[i]);
        }
        return (lower + upper) / 2;
    }

    /** The k-th smallest (0-based) of the first n values; afterwards work[0..k) ≤ work[k] ≤ work[k+1..n). */
    private static double select(final double[] work, final int n, final int k) {
        int lo = 0;
        int hi = n - 1;
        while (lo < hi) {
            final double pivot = median3(work[lo], work[lo + (hi - lo) / 2], work[hi]);
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (work[i] < pivot) {
                    i++;
                }
                while (work[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    final double t = work[i];
                    work[i] = work[j];
                    work[j] = t;
                    i++;
                    j--;
                }
            }
            if (k <= j) {
                hi = j;
            } else if (k >= i) {
                lo = i;
            } else {
                return work[k];
            }
        }
        return work[k];
    }

    private static double median3(final double a, final double b, final double c) {
        return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }
}
