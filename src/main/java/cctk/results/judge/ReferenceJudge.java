package cctk.results.judge;

import cctk.ExitCode;
import cctk.results.Numbers;
import cctk.results.Reference;
import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Judges references on the large-message plateau each names: per run of a matching backend, the median busbw of
 * the measured sizes within the reference's range (one measurement per size, chosen as {@link Series} does;
 * the reference's type when it names one), against tolerance × expected. The harness judges its run in memory; {@code
 * cctk report} judges the files it reads, with the same code. A range without a measured size, or no
 * run of the backend at all, is NOT MEASURED, which fails: an acceptance test that measured nothing passed
 * nothing.
 * <b>Note:</b> threadsafe (no state).
 */
public final class ReferenceJudge {

    private ReferenceJudge() {
    }

    /** One verdict per reference and matching run (or one NOT MEASURED per reference without a run). */
    public static List<Verdict> judge(final List<Reference> refs, final ResultSet set) {
        final List<Verdict> out = new ArrayList<>();
        for (final Reference ref : refs) {
            final List<Run> runs = set.runs().stream()
                .filter(r -> ref.backend() == null || ref.backend().equals(r.backend())).toList();
            if (runs.isEmpty()) {
                out.add(new Verdict(ref, null, false, Double.NaN, 0, "no run of backend " + ref.backend()
                    + " among the results"));
            }
            for (final Run run : runs) {
                out.add(judge(ref, run, set));
            }
        }
        return out;
    }

    /**
     * The end of a run on rank 0: judges the references that apply to {@code backends} on the run's own measurements,
     * in memory; prints PASS/FAIL per reference to {@code out} and returns FAILED on a FAIL, so a run can gate a
     * cluster's acceptance. OK without output when no reference applies.
     */
    public static ExitCode endOfRun(final List<Reference> refs, final List<String> backends,
                                    final List<Result> measured, final PrintWriter out) {
        final List<Reference> mine = refs.stream()
            .filter(r -> r.backend() == null || backends.contains(r.backend())).toList();
        if (mine.isEmpty()) {
            return ExitCode.OK;
        }
        final List<Verdict> verdicts = judge(mine, new ResultSet(measured, List.of()));
        verdicts.forEach(v -> out.println(v.line()));
        out.flush();
        return exitCode(verdicts);
    }

    /** FAILED when any verdict fails, else OK. */
    public static ExitCode exitCode(final List<Verdict> verdicts) {
        return verdicts.stream().allMatch(Verdict::pass) ? ExitCode.OK : ExitCode.FAILED;
    }

    private static Verdict judge(final Reference ref, final Run run, final ResultSet set) {
        final String name = set.nameOf(run);
        final List<Result> rs = set.of(run).stream()
            .filter(r -> r.measured() && r.collective().equals(ref.collective()))
            .filter(r -> ref.dtype() == null || ref.dtype().equals(r.dtype())).toList();
        if (rs.isEmpty()) {
            return new Verdict(ref, name, false, Double.NaN, 0, name + " measured no " + ref.collective()
                + (ref.dtype() == null ? "" : " " + ref.dtype()));
        }
        final List<Result> main = Selection.preferred(Selection.mainKind(rs));
        final List<Result> inRange = main.stream()
            .filter(r -> r.sizeBytes() >= ref.minBytes() && r.sizeBytes() <= ref.maxBytes()).toList();
        if (inRange.isEmpty()) {
            return new Verdict(ref, name, false, Double.NaN, 0, name + " measured no size within "
                + Numbers.span(ref.minBytes(), ref.maxBytes()) + " (its sizes: "
                + Numbers.span(main.get(0).sizeBytes(), main.get(main.size() - 1).sizeBytes()) + ")");
        }
        final double median = Selection.median(inRange.stream().map(Result::busBw).toList());
        return new Verdict(ref, name, median >= ref.threshold(), median, inRange.size(), null);
    }
}
