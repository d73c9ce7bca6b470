package cctk.report;

import cctk.results.Numbers;
import cctk.results.Result;
import cctk.results.Run;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The conclusion's words on one collective's runs: which configuration has the highest busbw over the large sizes
 * they measured in common, and where each run's busbw reaches a plateau. Runs of one configuration (backend, world
 * size, cluster and benchmark settings alike: {@link #config}) are repeats: they are ranked as one, by the median
 * of their figures, and never against each other, as what tells repeats apart is noise.
 * <b>Note:</b> threadsafe (no state).
 */
final class Ranking {

    /** The most runs named per collective. */
    static final int MAX_RUNS = 6;
    /** Settings a run records that differ between repeats of one configuration (how long its JIT warm-up took). */
    private static final List<String> NOT_CONFIG = List.of("jit_warmup");

    private Ranking() {
    }

    /** What makes {@code r} a configuration: runs alike in it are repeats of one another. */
    static String config(final Run r) {
        final Map<String, Object> args = new TreeMap<>(r.args());
        NOT_CONFIG.forEach(args::remove);
        return r.backend() + "\u0000" + r.world() + "\u0000" + r.cluster() + "\u0000" + args;
    }

    /** Who is fastest by busbw over the sizes they measured in common, and where each saturates. */
    static void of(final String coll, final List<Analysis.Plateau> ps, final List<String> out) {
        final Series first = ps.get(0).series();
        final String what = coll + Analysis.kindSuffix(first);
        if (ps.size() == 1) {
            out.add(what + ": one run, " + first.name() + ", plateau busbw " + Tables.num(ps.get(0).busBw())
                + " GB/s over " + AnalysisText.range(ps.get(0).fromBytes(), ps.get(0).toBytes(), ps.get(0).sizes())
                + ". " + saturation(first));
            return;
        }
        final List<Series> series = ps.stream().map(Analysis.Plateau::series).toList();
        final NominalSizes nominal = new NominalSizes(Series.sizes(series));
        final List<TreeMap<Long, Result>> points = series.stream().map(s -> s.byNominal(nominal)).toList();
        final List<Integer> chosen = sharing(points);
        if (chosen.size() < 2) {
            out.add(what + ": no two runs measured a size in common, so none is called fastest (compare the"
                + " plateaus, each over its own sizes).");
        } else {
            rank(what, series, points, chosen, out);
        }
        series.stream().limit(MAX_RUNS).forEach(s -> out.add("  " + s.name() + ": " + saturation(s)));
    }

    /**
     * The runs to rank: all of them when they share a size; else those that measured the size the most runs did
     * (the larger of equals).
     */
    private static List<Integer> sharing(final List<TreeMap<Long, Result>> points) {
        final TreeMap<Long, List<Integer>> who = new TreeMap<>();
        for (int i = 0; i < points.size(); i++) {
            final int run = i;
            points.get(i).keySet().forEach(n -> who.computeIfAbsent(n, k -> new ArrayList<>()).add(run));
        }
        List<Integer> best = List.of();
        for (final List<Integer> runs : who.values()) {
            best = runs.size() >= best.size() ? runs : best;
        }
        return best;
    }

    /** Ranks the configurations of the {@code chosen} runs by the median busbw over their largest common sizes. */
    private static void rank(final String what, final List<Series> series, final List<TreeMap<Long, Result>> points,
                             final List<Integer> chosen, final List<String> out) {
        final TreeSet<Long> common = new TreeSet<>(points.get(chosen.get(0)).keySet());
        chosen.forEach(i -> common.retainAll(points.get(i).keySet()));
        final long largest = common.last();
        final List<Long> top = common.tailSet((largest + Analysis.PLATEAU_SPAN - 1) / Analysis.PLATEAU_SPAN).stream()
            .toList();
        final Map<String, List<double[]>> configs = new LinkedHashMap<>();
        for (final int i : chosen) {
            final TreeMap<Long, Result> mine = points.get(i);
            configs.computeIfAbsent(config(series.get(i).run()), k -> new ArrayList<>()).add(new double[] {
                Analysis.median(top.stream().map(b -> mine.get(b).busBw()).toList()), i});
        }
        final String over = AnalysisText.range(top.get(0), largest, top.size());
        final List<String> left = new ArrayList<>();
        for (int i = 0; i < series.size(); i++) {
            if (!chosen.contains(i)) {
                left.add(series.get(i).name());
            }
        }
        final String scope = left.isEmpty() ? "the largest sizes every run measured"
            : "the largest sizes " + chosen.size() + " of the runs measured; " + AnalysisText.names(left)
            + " measured none of them";
        if (configs.size() == 1) {
            final List<double[]> runs = configs.values().iterator().next();
            out.add(what + ": " + runs.size() + " repeats of one configuration (" + String.join(", ", runs.stream()
                .limit(MAX_RUNS).map(r -> series.get((int) r[1]).name()).toList()) + "), so none is called fastest:"
                + " busbw " + spread(runs) + " GB/s (median over " + over + ", " + scope + ").");
            return;
        }
        final List<Map.Entry<String, List<double[]>>> ranked = new ArrayList<>(configs.entrySet());
        ranked.sort(Comparator.comparingDouble((Map.Entry<String, List<double[]>> e) -> figure(e.getValue()))
            .reversed());
        final StringBuilder sb = new StringBuilder(what + ": fastest by busbw is " + name(series, ranked.get(0))
            + " at " + Tables.num(figure(ranked.get(0).getValue())) + " GB/s busbw" + repeats(ranked.get(0))
            + " (median over " + over + ", " + scope + ")");
        for (int i = 1; i < Math.min(MAX_RUNS, ranked.size()); i++) {
            sb.append(i == 1 ? "; then " : ", ").append(name(series, ranked.get(i))).append(' ')
                .append(Tables.num(figure(ranked.get(i).getValue()))).append(repeats(ranked.get(i)));
        }
        sb.append(ranked.size() > MAX_RUNS ? ", ..." : "").append('.');
        final List<double[]> a = ranked.get(0).getValue();
        final List<double[]> b = ranked.get(1).getValue();
        if ((a.size() > 1 || b.size() > 1) && max(b) >= min(a)) {
            sb.append(" The repeats of the first two overlap, so which is faster is not settled.");
        }
        out.add(sb.toString());
    }

    /** A configuration's figure: the median of its runs' figures. */
    private static double figure(final List<double[]> runs) {
        return Analysis.median(runs.stream().map(r -> r[0]).toList());
    }

    private static double min(final List<double[]> runs) {
        return runs.stream().mapToDouble(r -> r[0]).min().orElse(Double.NaN);
    }

    private static double max(final List<double[]> runs) {
        return runs.stream().mapToDouble(r -> r[0]).max().orElse(Double.NaN);
    }

    /** {@code 1.00 - 1.20}, or {@code 1.00} for runs alike. */
    private static String spread(final List<double[]> runs) {
        final String lo = Tables.num(min(runs));
        final String hi = Tables.num(max(runs));
        return lo.equals(hi) ? lo : lo + " - " + hi;
    }

    /** {@code " (median of 3 repeats, 1.00 - 1.20)"}, or nothing for one run. */
    private static String repeats(final Map.Entry<String, List<double[]>> config) {
        final List<double[]> runs = config.getValue();
        return runs.size() == 1 ? "" : " (median of " + runs.size() + " repeats, " + spread(runs) + ")";
    }

    /** A configuration's name: its runs' short name ({@code tcp W=4}), or its first run's name for one run. */
    private static String name(final List<Series> series, final Map.Entry<String, List<double[]>> config) {
        final Series s = series.get((int) config.getValue().get(0)[1]);
        return config.getValue().size() == 1 ? s.name() : s.run().shortName();
    }

    /**
     * Where a series' busbw reaches its plateau: the sizes from which, through the largest measured, every busbw
     * lies within {@link Conclusion#SATURATED} of the highest of them, allowing each point its noise (its spread
     * between repeats). A peak before that plateau is named; a series flat from its smallest size, or whose largest
     * size alone is highest, or that ends below its plateau, has none to name. Its figure is the median busbw of
     * those sizes, named as such: the plateau line's figure is the median over other sizes (those within
     * {@link Analysis#PLATEAU_SPAN} of the largest), so the two may differ.
     */
    static String saturation(final Series s) {
        final List<Result> pts = s.points().stream().filter(p -> Double.isFinite(p.busBw()) && p.sizeBytes() > 0)
            .toList();
        if (pts.size() < 2) {
            return "one size measured, so where it saturates is unknown.";
        }
        final Result peak = pts.stream().max(Comparator.comparingDouble(Result::busBw)).orElseThrow();
        final Result last = pts.get(pts.size() - 1);
        int from = pts.size() - 1;
        double high = last.busBw();
        double low = last.busBw() * (1 + noise(last));
        while (from > 0) {
            final Result p = pts.get(from - 1);
            final double h = Math.max(high, p.busBw());
            final double l = Math.min(low, p.busBw() * (1 + noise(p)));
            if (l < Conclusion.SATURATED * h) {
                break;
            }
            from--;
            high = h;
            low = l;
        }
        final double plateau = Analysis.median(pts.subList(from, pts.size()).stream().map(Result::busBw).toList());
        final String within = Math.round(100 - Conclusion.SATURATED * 100) + " %";
        if (from == pts.size() - 1) {
            return last == peak ? "busbw still rises at the largest size measured (" + Numbers.size(last.sizeBytes())
                + ", " + Tables.num(last.busBw()) + " GB/s): not saturated; measure larger sizes to find the plateau."
                : unsettled(peak, pts.get(from - 1), last, within);
        }
        final String sizes = AnalysisText.range(pts.get(from).sizeBytes(), last.sizeBytes(), pts.size() - from);
        if (from == 0) {
            return "busbw is flat over every size measured (" + sizes + ", each within " + within + " and its noise of"
                + " the highest; the median busbw of every size is " + Tables.num(plateau) + " GB/s), so it saturates"
                + " at or below the smallest size measured, or not at all; measure smaller sizes to see where it"
                + " rises.";
        }
        final String before = peak.busBw() > high ? ", after a peak of " + Tables.num(peak.busBw()) + " GB/s at "
            + Numbers.size(peak.sizeBytes()) : "";
        return "saturates from " + Numbers.size(pts.get(from).sizeBytes()) + " at " + Tables.num(plateau)
            + " GB/s (the median over " + sizes + ", each within " + within + " and its noise of the highest"
            + before + ").";
    }

    /**
     * Why a series whose largest size is not its peak has not settled (no plateau to name): the rule found the
     * largest size's busbw and the one before it apart by more than {@link Conclusion#SATURATED} allows, even with
     * the lower one raised by its noise; both figures are named, and which way the largest size went.
     */
    private static String unsettled(final Result peak, final Result before, final Result last, final String within) {
        return "not settled: busbw peaks at " + Tables.num(peak.busBw()) + " GB/s at " + Numbers.size(peak.sizeBytes())
            + "; at the largest size, " + Numbers.size(last.sizeBytes()) + ", it is " + Tables.num(last.busBw())
            + " GB/s, " + (last.busBw() < before.busBw() ? "below" : "above") + (before == peak ? " the peak, at the"
            + " size before," : " the " + Tables.num(before.busBw()) + " GB/s at the size before ("
            + Numbers.size(before.sizeBytes()) + "),") + " by more than " + within + " and the lower one's noise"
            + " between repeats; measure larger sizes to see where it settles.";
    }

    /** A point's relative spread between repeats, 0 when not recorded, at most 0.5 (a wilder one says nothing). */
    private static double noise(final Result r) {
        final double n = Noise.repeats(r);
        return Double.isFinite(n) ? Math.min(0.5, n) : 0;
    }
}
