package cctk.report;

import cctk.results.CrossCoreReadings;
import cctk.results.Numbers;
import cctk.results.Result;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares like with like where a machine has two modes. Some machines (virtual ones whose vCPUs the host moves
 * between its core complexes, two-socket nodes) hand data between two cores at two speeds that change while nothing
 * else does; every cctk row carries the reading taken with it (rank 0's 1 MiB round trip between two cores,
 * {@link Result.Obtained#crossCoreUs}). When the rows of a cell, BASE's and NEW's together, fall into two groups
 * whose readings lie more than {@link CrossCoreReadings#CHANGED} apart, and both sides hold rows of one group, the
 * cell is compared on the rows of that group only: the group both sides hold, or, where both hold both, the larger
 * one (the faster mode on a tie). Without this a side whose majority of repeated runs came in the other mode than
 * the other side's would be compared mode against mode and called "the machine changed", although both sides
 * measured both modes. A cell whose sides share no mode is left as it is (and flagged {@link Comparison.Flag#MACHINE}
 * if it moved), as is every cell where a row carries no reading.
 * <b>Note:</b> threadsafe (no state).
 */
final class SameMode {

    /** Both sides' results by measurement, one per run, after the match. */
    record Sides(Map<String, List<Result>> base, Map<String, List<Result>> next) {
    }

    private SameMode() {
    }

    /**
     * {@code base} and {@code next} with, in each cell measured in both modes, only the rows of the mode compared;
     * a note saying how many cells and rows that touched, and the modes' readings, is added to {@code notes}.
     */
    static Sides match(final Map<String, List<Result>> base, final Map<String, List<Result>> next,
                       final List<String> notes) {
        final Map<String, List<Result>> b = new LinkedHashMap<>(base);
        final Map<String, List<Result>> n = new LinkedHashMap<>(next);
        int cells = 0;
        int left = 0;
        double[] kept = new double[0];
        double[] dropped = new double[0];
        for (final Map.Entry<String, List<Result>> e : base.entrySet()) {
            final List<Result> ns = next.get(e.getKey());
            if (ns == null) {
                continue;
            }
            final double cut = cut(e.getValue(), ns);
            if (Double.isNaN(cut)) {
                continue;
            }
            final boolean bLow = any(e.getValue(), cut, true);
            final boolean bHigh = any(e.getValue(), cut, false);
            final boolean nLow = any(ns, cut, true);
            final boolean nHigh = any(ns, cut, false);
            final boolean low;
            if (bLow && nLow && bHigh && nHigh) {
                low = count(e.getValue(), cut, true) + count(ns, cut, true)
                    >= count(e.getValue(), cut, false) + count(ns, cut, false);
            } else if (bLow && nLow) {
                low = true;
            } else if (bHigh && nHigh) {
                low = false;
            } else {
                continue; // the sides share no mode
            }
            final List<Result> bKept = in(e.getValue(), cut, low);
            final List<Result> nKept = in(ns, cut, low);
            final int out = e.getValue().size() + ns.size() - bKept.size() - nKept.size();
            if (out == 0) {
                continue;
            }
            cells++;
            left += out;
            kept = concat(kept, readings(bKept), readings(nKept));
            dropped = concat(dropped, readings(in(e.getValue(), cut, !low)), readings(in(ns, cut, !low)));
            b.put(e.getKey(), bKept);
            n.put(e.getKey(), nKept);
        }
        if (cells > 0) {
            notes.add(cells + " cell(s) measured in both of the machine's modes were compared on the rows measured"
                + " in the same mode on both sides (a 1 MiB round trip between two cores of about "
                + Numbers.fixed(OutlierRuns.median(kept), 0) + " µs); " + left + " row(s) measured in the other mode"
                + " (about " + Numbers.fixed(OutlierRuns.median(dropped), 0) + " µs) left out");
        }
        return new Sides(b, n);
    }

    /**
     * The reading that parts the cell's rows into the machine's two modes: the lower end of the widest gap between
     * sorted readings, where that gap is wider than {@link CrossCoreReadings#CHANGED}; NaN where there is no such gap
     * or a row carries no reading.
     */
    static double cut(final List<Result> bs, final List<Result> ns) {
        final double[] r = concat(readings(bs), readings(ns));
        if (r.length < bs.size() + ns.size() || r.length < 2) {
            return Double.NaN;
        }
        Arrays.sort(r);
        double cut = Double.NaN;
        double widest = CrossCoreReadings.CHANGED;
        for (int i = 1; i < r.length; i++) {
            if (r[i - 1] > 0 && r[i] / r[i - 1] > widest) {
                widest = r[i] / r[i - 1];
                cut = r[i - 1];
            }
        }
        return cut;
    }

    private static double[] readings(final List<Result> rs) {
        return rs.stream().mapToDouble(r -> r.how().crossCoreUs()).filter(v -> Double.isFinite(v) && v > 0)
            .toArray();
    }

    private static List<Result> in(final List<Result> rs, final double cut, final boolean low) {
        return rs.stream().filter(r -> r.how().crossCoreUs() <= cut == low).toList();
    }

    private static boolean any(final List<Result> rs, final double cut, final boolean low) {
        return count(rs, cut, low) > 0;
    }

    private static long count(final List<Result> rs, final double cut, final boolean low) {
        return rs.stream().filter(r -> r.how().crossCoreUs() <= cut == low).count();
    }

    private static double[] concat(final double[]... parts) {
        return Arrays.stream(parts).flatMapToDouble(Arrays::stream).toArray();
    }
}
