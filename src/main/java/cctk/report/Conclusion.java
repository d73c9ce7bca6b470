package cctk.report;

import cctk.results.Numbers;
import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import cctk.results.Verdict;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The analysis's last words, in plain sentences: per collective (its main element type and operator) which run is
 * fastest by busbw over the large sizes every run measured, where each run's bus bandwidth saturates (reaches
 * {@link #SATURATED} of its peak) or that it still rises at the largest size, and what looks wrong: wrong elements,
 * runs that stopped early, noisy measurements, bandwidth that falls at the largest sizes, failed references,
 * skipped inputs.
 * <b>Note:</b> threadsafe (no state).
 */
final class Conclusion {

    /** The fraction of its peak busbw from which a series counts as saturated. */
    static final double SATURATED = 0.9;
    /** A busbw at the largest size below this fraction of the peak counts as falling off. */
    static final double FALLS_OFF = 0.7;
    /** The most collectives the conclusion speaks of (the analysis above has them all). */
    private static final int MAX_COLLECTIVES = 12;
    /** The most runs named per collective. */
    private static final int MAX_RUNS = 6;

    private Conclusion() {
    }

    /** The conclusion's sentences, one per line. */
    static List<String> lines(final ResultSet set, final Analysis a, final List<Verdict> verdicts,
                              final double cvLimit) {
        final List<String> out = new ArrayList<>();
        final Map<String, List<Analysis.Plateau>> main = new LinkedHashMap<>();
        final Map<String, java.util.Set<String>> others = new LinkedHashMap<>();
        for (final Analysis.Plateau p : a.plateaus()) {
            final List<Analysis.Plateau> ps = main.computeIfAbsent(p.series().collective(), k -> new ArrayList<>());
            if (ps.isEmpty() || ps.get(0).series().sameKind(p.series())) {
                ps.add(p);
            } else {
                others.computeIfAbsent(p.series().collective(), k -> new java.util.TreeSet<>()).add(p.series()
                    .kind());
            }
        }
        main.entrySet().stream().limit(MAX_COLLECTIVES).forEach(e -> {
            fastest(e.getKey(), e.getValue(), out);
            if (others.containsKey(e.getKey())) {
                out.add("  also measured: " + String.join(", ", others.get(e.getKey())) + " (their figures are above,"
                    + " their plots apart per type)");
            }
        });
        if (main.size() > MAX_COLLECTIVES) {
            out.add("(" + (main.size() - MAX_COLLECTIVES) + " more collectives: see the figures above.)");
        }
        final List<String> wrong = wrong(set, a, verdicts, cvLimit);
        final List<String> unknown = AnalysisText.withoutSpread(set);
        if (wrong.isEmpty()) {
            out.add("Nothing looks wrong: no wrong elements, every run complete, " + (unknown.isEmpty()
                ? "no measurement varies by more than " + Tables.num(cvLimit) + " % between iterations, "
                : unknown.size() == set.runs().size() ? "" : "no measurement of the runs that record it varies by"
                + " more than " + Tables.num(cvLimit) + " % between iterations, ")
                + "no bandwidth falls off at the largest sizes." + (unknown.isEmpty() ? "" : " How much "
                + AnalysisText.names(unknown) + " vary between iterations is unknown: " + (unknown.size() == 1
                ? "its files do not record it." : "their files do not record it.")));
        } else {
            out.add("What looks wrong:");
            wrong.forEach(w -> out.add("- " + w));
            if (!unknown.isEmpty()) {
                out.add("How much " + AnalysisText.names(unknown) + " vary between iterations is unknown: their files"
                    + " do not record it.");
            }
        }
        return out;
    }

    /** Who is fastest over the sizes all of them measured, and where each saturates. */
    private static void fastest(final String coll, final List<Analysis.Plateau> ps, final List<String> out) {
        final Series first = ps.get(0).series();
        final String what = coll + Analysis.kindSuffix(first);
        if (ps.size() == 1) {
            out.add(what + ": one run, " + first.name() + ", " + Tables.num(ps.get(0).busBw()) + " GB/s busbw over "
                + AnalysisText.range(ps.get(0).fromBytes(), ps.get(0).toBytes(), ps.get(0).sizes()) + ". "
                + saturation(first));
            return;
        }
        final NominalSizes nominal = new NominalSizes(Series.sizes(ps.stream().map(Analysis.Plateau::series)
            .toList()));
        final List<java.util.TreeMap<Long, Result>> points = ps.stream().map(p -> p.series().byNominal(nominal))
            .toList();
        final TreeSet<Long> common = new TreeSet<>(points.get(0).keySet());
        points.forEach(p -> common.retainAll(p.keySet()));
        if (common.isEmpty()) {
            out.add(what + ": the runs measured no size in common, so none is called fastest (compare the plateaus"
                + " above, each over its own sizes).");
        } else {
            final long largest = common.last();
            final List<Long> top = common.tailSet((largest + Analysis.PLATEAU_SPAN - 1) / Analysis.PLATEAU_SPAN)
                .stream().toList();
            final List<double[]> ranked = new ArrayList<>();
            for (int i = 0; i < ps.size(); i++) {
                final java.util.TreeMap<Long, Result> mine = points.get(i);
                ranked.add(new double[] {Analysis.median(top.stream().map(b -> mine.get(b).busBw()).toList()), i});
            }
            ranked.sort(Comparator.comparingDouble((double[] r) -> r[0]).reversed());
            final StringBuilder sb = new StringBuilder(what + ": fastest by busbw is "
                + ps.get((int) ranked.get(0)[1]).series().name() + " at " + Tables.num(ranked.get(0)[0])
                + " GB/s busbw (median over " + AnalysisText.range(top.get(0), largest, top.size())
                + ", the largest sizes every run measured)");
            for (int i = 1; i < Math.min(MAX_RUNS, ranked.size()); i++) {
                sb.append(i == 1 ? "; then " : ", ").append(ps.get((int) ranked.get(i)[1]).series().name())
                    .append(' ').append(Tables.num(ranked.get(i)[0]));
            }
            out.add(sb.append(ranked.size() > MAX_RUNS ? ", ..." : "").append('.').toString());
        }
        ps.stream().limit(MAX_RUNS).forEach(p -> out.add("  " + p.series().name() + ": " + saturation(p.series())));
    }

    /** Where a series reaches {@link #SATURATED} of its peak busbw, or that it still rises at its largest size. */
    static String saturation(final Series s) {
        final List<Result> pts = s.points().stream().filter(p -> Double.isFinite(p.busBw())).toList();
        final Result peak = pts.stream().max(Comparator.comparingDouble(Result::busBw)).orElseThrow();
        final Result last = pts.get(pts.size() - 1);
        final Result from = pts.stream().filter(p -> p.busBw() >= SATURATED * peak.busBw()).findFirst()
            .orElseThrow();
        if (pts.size() == 1) {
            return "one size measured, so where it saturates is unknown.";
        }
        if (from == last) {
            return "busbw still rises at the largest size measured (" + Numbers.size(last.sizeBytes()) + ", "
                + Tables.num(last.busBw()) + " GB/s): not saturated; measure larger sizes to find the plateau.";
        }
        return "saturates from " + Numbers.size(from.sizeBytes()) + " (" + Tables.num(from.busBw()) + " GB/s, "
            + Math.round(SATURATED * 100) + " % of its peak of " + Tables.num(peak.busBw()) + " GB/s at "
            + Numbers.size(peak.sizeBytes()) + ").";
    }

    private static List<String> wrong(final ResultSet set, final Analysis a, final List<Verdict> verdicts,
                                      final double cvLimit) {
        final List<String> out = new ArrayList<>();
        if (a.wrong() > 0) {
            out.add(a.wrong() + " wrong elements: some results are not correct; the full results name the"
                + " collective, type and size.");
        }
        final List<String> stopped = set.runs().stream().filter(r -> !r.complete()).map(set::nameOf).toList();
        if (!stopped.isEmpty()) {
            out.add(stopped.size() + " run(s) stopped early (" + String.join(", ", stopped.stream().limit(MAX_RUNS)
                .toList()) + (stopped.size() > MAX_RUNS ? ", ..." : "") + "): their figures cover only what they"
                + " measured.");
        }
        if (!a.outliers().isEmpty()) {
            final Analysis.Outlier o = a.outliers().get(0);
            out.add("noisy measurements: " + a.outliers().size() + (a.outliers().size() >= 15 ? "+" : "")
                + " vary by more than " + Tables.num(cvLimit) + " % between iterations (the worst: " + o.name() + " "
                + o.result().collective() + " " + (o.result().dtype() == null ? "" : o.result().dtype() + " ")
                + (o.result().op() == null ? "" : o.result().op() + " ") + Numbers.size(o.result().sizeBytes())
                + ", cv " + Tables.num(o.cvPct()) + " %); compare such sizes with care, or run more iterations.");
        }
        int falls = 0;
        for (final Analysis.Plateau p : a.plateaus()) {
            final List<Result> pts = p.series().points();
            final Result last = pts.get(pts.size() - 1);
            if (pts.size() > 1 && Double.isFinite(last.busBw()) && last.busBw() < FALLS_OFF * p.peakBusBw()
                && falls++ < MAX_RUNS) {
                out.add(p.series().collective() + Analysis.kindSuffix(p.series()) + " " + p.series().name()
                    + ": busbw falls from " + Tables.num(p.peakBusBw()) + " GB/s to " + Tables.num(last.busBw())
                    + " GB/s at the largest size (" + Numbers.size(last.sizeBytes()) + "): memory pressure,"
                    + " contention, or a noisy point?");
            }
        }
        if (falls > MAX_RUNS) {
            out.add("busbw falls off at the largest size in " + (falls - MAX_RUNS) + " more series.");
        }
        final long failed = verdicts.stream().filter(v -> !v.pass()).count();
        if (failed > 0) {
            out.add(failed + " reference(s) FAILED (see References above).");
        }
        if (!set.problems().isEmpty()) {
            out.add(set.problems().size() + " input(s) skipped in whole or part (see above).");
        }
        final long runsWithoutHosts = set.runs().stream().filter((Run r) -> r.hosts().isEmpty()).count();
        if (runsWithoutHosts > 0 && runsWithoutHosts < set.runs().size()) {
            out.add(runsWithoutHosts + " run(s) do not say where they ran (a bare CSV without its JSON).");
        }
        return out;
    }
}
