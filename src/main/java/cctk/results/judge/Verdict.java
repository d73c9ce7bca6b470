package cctk.results.judge;

import cctk.results.Numbers;
import cctk.results.Reference;


/**
 * A reference judged on one run, or NOT MEASURED (a FAIL) when no run or no size of its range was measured.
 *
 * @param reference the reference
 * @param runName   the run's name, or null when no run matched
 * @param pass      true for PASS
 * @param busBw     the median busbw over the sizes in range, NaN when not measured
 * @param sizes     how many sizes the median is over
 * @param reason    why it failed to be measured, or null
 */
public record Verdict(Reference reference, String runName, boolean pass, double busBw, int sizes, String reason) {

    /** {@code PASS all_reduce ...: tcp W=4 median busbw 85.12 GB/s over 4 sizes}. */
    public String line() {
        final String head = (pass ? "PASS " : "FAIL ") + reference.describe() + ": ";
        if (reason != null) {
            return head + "NOT MEASURED: " + reason;
        }
        return head + runName + " median busbw " + Numbers.fit(busBw, 10).trim() + " GB/s over " + sizes
            + (sizes == 1 ? " size" : " sizes") + " (needs " + Numbers.fit(reference.threshold(), 10).trim() + ")";
    }
}
