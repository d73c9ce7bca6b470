package cctk.comm;

import java.util.Arrays;

/**
 * How the backends name a set of ranks in a rank's header line and in messages: "rank 3", "ranks 1-3,5,8-9"
 * (sorted, runs of three or more as ranges), "no other rank" for none.
 * <b>Note:</b> threadsafe (no state).
 */
public final class RankList {

    private RankList() {
    }

    /** The first {@code n} ranks of {@code ranks}, in any order, as text. */
    public static String of(final int[] ranks, final int n) {
        if (n == 0) {
            return "no other rank";
        }
        final int[] sorted = Arrays.copyOf(ranks, n);
        Arrays.sort(sorted);
        final StringBuilder sb = new StringBuilder(n == 1 ? "rank " : "ranks ");
        int i = 0;
        while (i < n) {
            int j = i;
            while (j + 1 < n && sorted[j + 1] == sorted[j] + 1) {
                j++;
            }
            sb.append(i == 0 ? "" : ",").append(sorted[i]);
            if (j - i >= 2) {
                sb.append('-').append(sorted[j]);
                i = j + 1;
            } else {
                i++;
            }
        }
        return sb.toString();
    }
}
