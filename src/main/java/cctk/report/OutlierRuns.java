package cctk.report;

import cctk.results.Numbers;
import cctk.results.Result;
import cctk.results.Run;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds a run that lies far from the other runs of one side and leaves it out. Each run's level is the median, over
 * the measurements that 3 or more runs of the side made, of how far its time lies from the median time of those
 * runs (in logs). A run is an outlier when its level lies further from the median level than both
 * {@link #MADS} robust standard deviations (1.4826 × the median absolute deviation of the levels) and
 * {@link #LEAST} (25 %): across most of its measurements it is off, which a disturbed run (another job, a busy core)
 * is. Only a minority is left out, the farthest first, and at least 2 runs stay.
 * <b>Note:</b> threadsafe (no state).
 */
final class OutlierRuns {

    /** How many robust standard deviations from the median level make an outlier. */
    static final double MADS = 5;
    /** The least distance from the median level that makes an outlier, in logs (25 %). */
    static final double LEAST = Math.log(1.25);
    /** The median absolute deviation of a normal distribution is its standard deviation over this. */
    private static final double MAD_TO_SD = 1.4826;
    private static final int MIN_RUNS = 3;

    private OutlierRuns() {
    }

    /**
     * {@code groups} (one side's results by measurement, one per run) without its outlier runs; a note naming each
     * run left out is added to {@code notes}. A measurement that only outlier runs made keeps them.
     */
    static Map<String, List<Result>> leaveOut(final Map<String, List<Result>> groups, final String side,
                                             final List<String> notes) {
        final Map<Run, Double> levels = levels(groups, MIN_RUNS);
        if (levels.size() < MIN_RUNS) {
            return groups;
        }
        final double mid = median(levels.values().stream().mapToDouble(Double::doubleValue).toArray());
        final double mad = median(levels.values().stream().mapToDouble(v -> Math.abs(v - mid)).toArray());
        final double limit = Math.max(LEAST, MADS * MAD_TO_SD * mad);
        final List<Run> far = levels.entrySet().stream().filter(e -> Math.abs(e.getValue() - mid) > limit)
            .sorted(Comparator.comparingDouble(e -> -Math.abs(e.getValue() - mid))).map(Map.Entry::getKey)
            .limit((levels.size() - 1) / 2).toList();
        if (far.isEmpty()) {
            return groups;
        }
        for (final Run r : far) {
            final double off = Math.exp(levels.get(r) - mid);
            notes.add(side + " run " + name(r) + " left out as an outlier: its times lie " + Numbers.fixed(
                Math.abs(off - 1) * 100, 0) + "% " + (off > 1 ? "above" : "below") + " those of the other "
                + (levels.size() - 1) + " runs (median over its measurements)");
        }
        final Map<String, List<Result>> out = new LinkedHashMap<>();
        groups.forEach((k, rs) -> {
            final List<Result> kept = rs.stream().filter(x -> !far.contains(x.run())).toList();
            out.put(k, kept.isEmpty() ? rs : kept);
        });
        return out;
    }

    /**
     * How far the runs of one side lie apart as wholes: the largest level less the smallest (in logs), over
     * measurements made by 2 or more runs; NaN when fewer than 2 runs have a level.
     */
    static double levelRange(final Map<String, List<Result>> groups) {
        final Map<Run, Double> levels = levels(groups, 2);
        if (levels.size() < 2) {
            return Double.NaN;
        }
        final double lo = levels.values().stream().mapToDouble(Double::doubleValue).min().orElse(0);
        return levels.values().stream().mapToDouble(Double::doubleValue).max().orElse(0) - lo;
    }

    /** Each run's level (see the class), for runs of measurements made by {@code minRuns} or more runs. */
    static Map<Run, Double> levels(final Map<String, List<Result>> groups, final int minRuns) {
        final Map<Run, List<Double>> offs = new IdentityHashMap<>();
        final List<Run> order = new ArrayList<>();
        for (final List<Result> rs : groups.values()) {
            if (rs.size() < minRuns) {
                continue;
            }
            final double mid = median(rs.stream().mapToDouble(r -> Math.log(r.timeUs())).toArray());
            for (final Result r : rs) {
                if (!offs.containsKey(r.run())) {
                    order.add(r.run());
                }
                offs.computeIfAbsent(r.run(), k -> new ArrayList<>()).add(Math.log(r.timeUs()) - mid);
            }
        }
        final Map<Run, Double> out = new LinkedHashMap<>();
        for (final Run r : order) {
            out.put(r, median(offs.get(r).stream().mapToDouble(Double::doubleValue).toArray()));
        }
        return out;
    }

    /** The median of {@code v} (the mean of the middle two of an even number); NaN when empty. */
    static double median(final double[] v) {
        if (v.length == 0) {
            return Double.NaN;
        }
        final double[] s = v.clone();
        java.util.Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** The run's file, or its short name when the file is unknown. */
    private static String name(final Run r) {
        return r.source() == null ? r.shortName() : r.source();
    }
}
