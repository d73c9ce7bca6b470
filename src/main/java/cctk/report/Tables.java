package cctk.report;

import cctk.results.Numbers;
import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import cctk.results.judge.Verdict;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The report's tables, built once and written as Markdown and HTML. */
public final class Tables {

    private Tables() {
    }

    /** A number as tables show it: {@link Numbers#fit} without padding; "N/A" when not finite. */
    public static String num(final double v) {
        return Numbers.fit(v, 12).trim();
    }

    /** The runs: name, where, job, start, complete, parameters, file. */
    public static Table runs(final ResultSet set) {
        final List<List<String>> rows = new ArrayList<>();
        for (final Run r : set.runs()) {
            rows.add(List.of(set.nameOf(r), r.where().isEmpty() ? "unknown" : r.where(), Objects.toString(r.jobId(),
                ""), Objects.toString(r.start(), ""), r.complete() ? "yes" : "no (stopped early)",
                Parameters.of(set, r), r.source()));
        }
        return new Table("Runs", List.of("run", "where", "job", "start", "complete", "parameters", "file"), flags(7),
            rows);
    }

    /** Every measurement of every run; its rows are made when read, one at a time, never all held. */
    public static Table full(final ResultSet set) {
        final List<Result> results = set.results();
        final List<List<String>> rows = new AbstractList<>() {
            @Override
            public List<String> get(final int i) {
                final Result r = results.get(i);
                return List.of(set.nameOf(r.run()), r.collective(), Objects.toString(r.dtype(), ""),
                    Objects.toString(r.op(), ""), r.layout(), Numbers.size(r.sizeBytes()), num(r.timeUs()),
                    num(r.minUs()), num(r.p50Us()), num(r.p99Us()), num(r.cvPct()), num(r.algBw()), num(r.busBw()),
                    r.wrong() < 0 ? "" : Long.toString(r.wrong()), Objects.toString(r.skipped(), ""));
            }

            @Override
            public int size() {
                return results.size();
            }
        };
        return new Table("Full results", List.of("run", "collective", "dtype", "op", "layout", "size", "time (us)",
            "min (us)", "p50 (us)", "p99 (us)", "cv (%)", "algbw (GB/s)", "busbw (GB/s)", "wrong", "skipped"),
            List.of(false, false, false, false, false, true, true, true, true, true, true, true, true, true, false),
            rows);
    }

    /** Per run and collective: sizes, smallest-size time, plateau and peak busbw, mean variation, wrong. */
    public static Table summary(final ResultSet set, final Analysis a) {
        final List<List<String>> rows = new ArrayList<>();
        final Map<Series, Analysis.Plateau> plateaus = new IdentityHashMap<>();
        a.plateaus().forEach(p -> plateaus.put(p.series(), p));
        for (final Series s : Series.of(set)) {
            final Analysis.Plateau p = plateaus.get(s);
            final List<Result> pts = s.points();
            final double cv = pts.stream().mapToDouble(Result::cvPct).filter(Double::isFinite).average()
                .orElse(Double.NaN);
            final long wrong = pts.stream().mapToLong(r -> Math.max(0, r.wrong())).sum();
            rows.add(List.of(s.name(), s.collective(), Objects.toString(s.dtype(), ""), Objects.toString(s.op(), ""),
                pts.size() + " (" + Numbers.span(pts.get(0).sizeBytes(), pts.get(pts.size() - 1).sizeBytes())
                    + ")",
                num(pts.get(0).timeUs()), p == null ? "" : num(p.busBw()),
                p == null ? "" : Numbers.span(p.fromBytes(), p.toBytes()),
                p == null ? "" : num(p.peakBusBw()), num(cv), Long.toString(wrong)));
        }
        return new Table("Summary per configuration", List.of("run", "collective", "dtype", "op", "sizes",
            "time at smallest (us)", "plateau busbw (GB/s)", "plateau sizes", "peak busbw (GB/s)", "mean cv (%)",
            "wrong"), List.of(false, false, false, false, false, true, true, false, true, true, true), rows);
    }

    /** Every series at the measured size nearest to {@code bytes}. */
    public static Table atSize(final ResultSet set, final long bytes) {
        final List<List<String>> rows = new ArrayList<>();
        for (final Series s : Series.of(set)) {
            final Result r = s.nearest(bytes);
            if (r != null && s.carriesData()) {
                rows.add(List.of(s.collective(), Objects.toString(s.dtype(), ""), Objects.toString(s.op(), ""),
                    s.name(), Numbers.size(r.sizeBytes()), num(r.timeUs()), num(r.busBw())));
            }
        }
        return new Table("Every run at the measured size nearest to " + Numbers.size(bytes), List.of("collective",
            "dtype", "op", "run", "size measured", "time (us)", "busbw (GB/s)"),
            List.of(false, false, false, false, true, true, true), rows);
    }

    /** PASS/FAIL per reference. */
    public static Table verdicts(final List<Verdict> verdicts) {
        final List<List<String>> rows = new ArrayList<>();
        for (final Verdict v : verdicts) {
            rows.add(List.of(v.pass() ? "PASS" : "FAIL", v.reference().describe(), Objects.toString(v.runName(), ""),
                v.reason() == null ? num(v.busBw()) : "NOT MEASURED", Integer.toString(v.sizes()),
                num(v.reference().threshold())));
        }
        return new Table("References", List.of("verdict", "reference", "run", "plateau busbw (GB/s)", "sizes",
            "needs (GB/s)"), List.of(false, false, false, true, true, true), rows);
    }

    private static List<Boolean> flags(final int n) {
        return Collections.nCopies(n, false);
    }
}
