package cctk.report;

/**
 * The one-sided binomial sign test: were cells as likely to come out slower as faster (no change, p = 1/2 each),
 * how likely is it that at least {@code k} of {@code n} come out on one side? Cells that did not move either way
 * (within a small dead band) are left out of {@code n}, as the test asks.
 * <b>Note:</b> threadsafe (no state).
 */
final class SignTest {

    private SignTest() {
    }

    /**
     * P(X ≥ k) for X binomial with {@code n} trials and p = 1/2: the chance of {@code k} or more of {@code n} cells
     * on one side by luck alone; 1 when {@code k ≤ 0}, 0 when {@code k > n}.
     */
    static double atLeast(final int k, final int n) {
        if (n < 0) {
            throw new IllegalArgumentException("n must not be negative: " + n);
        }
        if (k <= 0) {
            return 1;
        }
        if (k > n) {
            return 0;
        }
        // terms C(n, i) / 2^n in logs, summed from the largest (i = k, as k > n/2 in the cases that matter)
        double logTerm = -n * Math.log(2);
        for (int i = 0; i < k; i++) {
            logTerm += Math.log(n - i) - Math.log(i + 1);
        }
        double sum = 0;
        for (int i = k; i <= n; i++) {
            sum += Math.exp(logTerm);
            logTerm += Math.log(n - i) - Math.log(i + 1);
        }
        return Math.min(1, sum);
    }
}
