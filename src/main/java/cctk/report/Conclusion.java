package cctk.report;

import cctk.results.Numbers;
import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import cctk.results.judge.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The analysis's last words, in plain sentences: per collective (its main element type and operator) which
 * configuration is fastest by busbw and where each run's busbw saturates ({@link Ranking}), and what looks
 * wrong: wrong elements, runs that stopped early, noisy measurements, bandwidth that falls at the largest sizes,
 * failed references, skipped inputs.
 * <b>Note:</b> threadsafe (no state).
 */
final class Conclusion {

    /** The fraction of the highest busbw of its plateau that every point of the plateau reaches. */
    static final double SATURATED = 0.9;
    /** A busbw at the largest size below this fraction of the peak counts as falling off. */
    static final double FALLS_OFF = 0.7;
    /** The most collectives the conclusion speaks of (the analysis above has them all). */
    private static final int MAX_COLLECTIVES = 12;
    /** The most runs named per collective. */
    private static final int MAX_RUNS = Ranking.MAX_RUNS;

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
            Ranking.of(e.getKey(), e.getValue(), out);
            if (others.containsKey(e.getKey())) {
                out.add("  also measured: " + String.join(", ", others.get(e.getKey())) + " (their figures are in"
                    + " the analysis, their plots apart per type)");
            }
        });
        if (main.size() > MAX_COLLECTIVES) {
            out.add("(" + (main.size() - MAX_COLLECTIVES) + " more collectives: see the analysis for their figures.)");
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
            out.add(failed + " reference(s) FAILED (see the References of the analysis).");
        }
        if (!set.problems().isEmpty()) {
            out.add(set.problems().size() + " input(s) skipped in whole or part (the analysis says which and why).");
        }
        final long runsWithoutHosts = set.runs().stream().filter((Run r) -> r.hosts().isEmpty()).count();
        if (runsWithoutHosts > 0 && runsWithoutHosts < set.runs().size()) {
            out.add(runsWithoutHosts + " run(s) do not say where they ran (a bare CSV without its JSON).");
        }
        return out;
    }
}
