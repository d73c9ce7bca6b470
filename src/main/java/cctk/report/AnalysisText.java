package cctk.report;

import cctk.results.Numbers;
import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import cctk.results.judge.Verdict;
import java.util.ArrayList;
import java.util.List;

/** The short text analysis: what ran where, plateaus, crossovers, ratios, outliers, wrong results, references. */
public final class AnalysisText {

    /** The heading of the sizes the plots leave out; the HTML page repeats its lines above the plots. */
    static final String UNPLOTTED = "Left out of the plots (no busbw or time above 0 to draw; the tables have these"
        + " rows):";

    private AnalysisText() {
    }

    /** The analysis as lines of text (analysis.txt, and the HTML page). */
    public static List<String> lines(final ResultSet set, final Analysis a, final List<Verdict> verdicts,
                                     final double cvLimit) {
        final List<String> out = new ArrayList<>();
        out.add("cctk report: " + set.runs().size() + (set.runs().size() == 1 ? " run, " : " runs, ")
            + set.results().size() + (set.results().size() == 1 ? " measurement" : " measurements"));
        for (final Run r : set.runs()) {
            out.add("  " + set.nameOf(r) + ": " + (r.where().isEmpty() ? "where unknown" : r.where())
                + (r.jobId() == null ? "" : ", job " + r.jobId()) + (r.start() == null ? "" : ", " + r.start())
                + (r.complete() ? "" : ", STOPPED EARLY" + (r.error() == null ? "" : ": " + r.error())));
            out.add("    measured with: " + Parameters.of(set, r));
        }
        out.add("");
        out.add("Plateau bus bandwidth (median busbw of the sizes >= 1/" + Analysis.PLATEAU_SPAN
            + " of the largest measured; peak = best size):");
        for (final Analysis.Plateau p : a.plateaus()) {
            out.add("  " + p.series().collective() + Analysis.kindSuffix(p.series()) + " " + p.series().name() + ": "
                + Tables.num(p.busBw())
                + " GB/s over " + range(p.fromBytes(), p.toBytes(), p.sizes()) + ", peak " + Tables.num(p.peakBusBw())
                + " GB/s");
        }
        out.add("");
        out.add("Crossovers by busbw (the size from which one has the higher busbw at every larger size both"
            + " measured):");
        if (a.crossovers().isEmpty()) {
            out.add("  none: at every common size the same one has the higher busbw"
                + (a.plateaus().size() < 2 ? " (only one series per collective)" : ""));
        }
        for (final Analysis.Crossover c : a.crossovers()) {
            out.add("  " + c.collective() + Analysis.kindSuffix(c.faster()) + ": " + c.faster().name() + " overtakes "
                + c.slower().name() + " by busbw at "
                + Numbers.size(c.atBytes()) + (c.sizes() == 1 ? " (the largest size only: check it is not noise)"
                : " (" + c.sizes() + " sizes)"));
        }
        out.add("");
        out.add("Ratios of busbw (same backend or same world size; median over the largest sizes both measured):");
        if (a.ratios().isEmpty()) {
            out.add("  none: no two runs of one collective and type share a backend or a world size and a size");
        }
        for (final Analysis.Ratio r : a.ratios()) {
            out.add("  " + r.a().collective() + Analysis.kindSuffix(r.a()) + ": " + r.a().name() + " / "
                + r.b().name() + " = " + Tables.num(r.ratio()) + "x over " + range(r.fromBytes(), r.toBytes(),
                r.sizes()));
        }
        a.notes().forEach(n -> out.add("  " + n));
        out.add("");
        out.add("Outliers (variation across iterations above " + Tables.num(cvLimit) + " %):");
        final List<String> unknown = withoutSpread(set);
        if (a.outliers().isEmpty()) {
            out.add(unknown.size() == set.runs().size() ? "  unknown: no run records its variation" : "  none");
        }
        if (!unknown.isEmpty()) {
            out.add("  " + unknown.size() + " run(s) record no variation between iterations or repeats (an nccl-tests"
                + " text log does not), so their noise is unknown: " + names(unknown));
        }
        for (final Analysis.Outlier o : a.outliers()) {
            final Result r = o.result();
            out.add("  " + o.name() + " " + r.collective() + " " + (r.dtype() == null ? "" : r.dtype() + " ")
                + (r.op() == null ? "" : r.op() + " ") + Numbers.size(r.sizeBytes()) + " " + r.layout()
                + ": cv " + Tables.num(o.cvPct()) + " %, p99/p50 " + Tables.num(o.tail()));
        }
        final List<String> unplotted = unplotted(set);
        if (!unplotted.isEmpty()) {
            out.add("");
            out.add(UNPLOTTED);
            unplotted.forEach(u -> out.add("  " + u));
        }
        out.add("");
        out.add("Wrong elements: " + (a.wrong() == 0 ? "none" : a.wrong() + " (see the full results)"));
        if (!verdicts.isEmpty()) {
            out.add("");
            out.add("References:");
            verdicts.forEach(v -> out.add("  " + v.line()));
        }
        if (!set.problems().isEmpty()) {
            out.add("");
            out.add("Inputs skipped in whole or part:");
            set.problems().forEach(p -> out.add("  " + p));
        }
        out.add("");
        out.add(HtmlPage.CONCLUSION);
        Conclusion.lines(set, a, verdicts, cvLimit).forEach(l -> out.add("  " + l));
        return out;
    }

    /**
     * The names of the runs none of whose measurements records a variation: neither a cv between iterations nor a
     * spread between repeats (an nccl-tests text log without per-iteration columns).
     */
    static List<String> withoutSpread(final ResultSet set) {
        final List<String> out = new ArrayList<>();
        for (final Run r : set.runs()) {
            if (set.of(r).stream().filter(Result::measured).noneMatch(m -> Double.isFinite(m.cvPct())
                || Double.isFinite(Noise.repeats(m)))) {
                out.add(set.nameOf(r));
            }
        }
        return out;
    }

    /** At most 6 names, then how many more. */
    static String names(final List<String> names) {
        return String.join(", ", names.stream().limit(6).toList()) + (names.size() > 6 ? " and " + (names.size() - 6)
            + " more" : "");
    }

    /**
     * Per plotted series, the sizes whose busbw or time is not above 0 (a row without a time; nccl-tests' 0.00 rows
     * get their busbw from size and time when read): the plots leave them out ({@link Charts#line}), so the report
     * says which and why.
     */
    static List<String> unplotted(final ResultSet set) {
        final List<String> out = new ArrayList<>();
        for (final Series s : Series.of(set)) {
            final List<Result> zero = s.points().stream().filter(p -> p.sizeBytes() > 0 && (!(p.busBw() > 0)
                || !(p.timeUs() > 0))).toList();
            if (s.carriesData() && !zero.isEmpty()) {
                out.add(s.collective() + Analysis.kindSuffix(s) + " " + s.name() + ": "
                    + range(zero.get(0).sizeBytes(), zero.get(zero.size() - 1).sizeBytes(), zero.size())
                    + " with busbw " + Tables.num(zero.get(0).busBw()) + " GB/s (too small to print, or not measured)"
                    + " are not in its plots");
            }
        }
        return out;
    }

    /** {@code 1 MiB - 16 MiB (5 sizes)}, or {@code 100 MB (1 size)}. */
    static String range(final long from, final long to, final int sizes) {
        return Numbers.span(from, to) + " (" + sizes + (sizes == 1 ? " size)" : " sizes)");
    }
}
