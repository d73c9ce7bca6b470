package cctk.diagnose.verdict;

import java.util.ArrayList;
import java.util.List;

/**
 * Stragglers from the per-rank, per-iteration times of one collective: the ranks leave a synchronising collective
 * together, so the time a rank spends in iteration i is (the common exit) − (its arrival), and a rank that arrives
 * late spends less time inside than the others. Its lateness in iteration i is the median time of the other ranks
 * minus its own; a straggler is late in most iterations (its median lateness is positive) by a good part of an
 * iteration. Needs no synchronised clocks: only each rank's own durations, which every measurement already has.
 * <b>Note:</b> threadsafe (no state).
 */
public final class ArrivalSkew {

    private ArrivalSkew() {
    }

    /**
     * The skew of each rank of one group.
     *
     * @param ranks     the ranks, in the order of {@code durations}
     * @param nodes     each rank's node index
     * @param durations per rank, its time in each iteration (µs); the same iteration count on every rank
     */
    public static List<RankSkew> of(final int[] ranks, final int[] nodes, final List<double[]> durations) {
        final int w = durations.size();
        final List<RankSkew> out = new ArrayList<>(w);
        if (w < 2) {
            return out;
        }
        final int n = durations.get(0).length;
        final double[] others = new double[w - 1];
        final double[] late = new double[n];
        final double[] typical = new double[n];
        for (int r = 0; r < w; r++) {
            int last = 0;
            for (int i = 0; i < n; i++) {
                int k = 0;
                double shortest = Double.POSITIVE_INFINITY;
                for (int s = 0; s < w; s++) {
                    if (s != r) {
                        others[k++] = durations.get(s)[i];
                        shortest = Math.min(shortest, durations.get(s)[i]);
                    }
                }
                final double mid = Medians.ofScratch(others, k);
                late[i] = mid - durations.get(r)[i];
                typical[i] = mid;
                if (durations.get(r)[i] < shortest) {
                    last++;
                }
            }
            out.add(new RankSkew(ranks[r], nodes[r], n, last, Medians.of(late), Medians.of(typical)));
        }
        return out;
    }

    /** How late ranks are anyway: the median over the ranks of one pass of their absolute lateness, µs. */
    public static double noiseFloor(final java.util.Collection<RankSkew> pass) {
        final double[] abs = new double[pass.size()];
        int k = 0;
        for (final RankSkew s : pass) {
            abs[k++] = Math.abs(s.lateUs());
        }
        return k == 0 ? 0 : Medians.of(abs);
    }

    /**
     * Whether {@code s} is a straggler at {@code threshold}: last in at least three quarters of the iterations, and
     * late by more than (1/threshold − 1) of an iteration and by more than {@link #NOISE} times the pass's
     * {@link #noiseFloor} (ranks that share cores all jitter; a straggler stands out of the jitter).
     */
    public static boolean straggles(final RankSkew s, final double threshold, final double floor) {
        return s != null && s.iterations() > 0 && s.ratio() > 1 / threshold - 1 && s.lateUs() > NOISE * floor
                && 4 * s.last() >= 3 * s.iterations();
    }

    /** How many times the noise floor a straggler must be late by. */
    public static final double NOISE = 3;
}
