package cctk.analysis;

import cctk.ExitCode;
import cctk.spec.Reference;
import java.util.ArrayList;
import java.util.List;

/**
 * Judges references on the large-message plateau each names: per run of a matching backend, the median busbw of
 * the measured sizes within the reference's range (one measurement per size, chosen as {@link Series} does;
 * the reference's type when it names one), against tolerance × expected. A range without a measured size, or no
 * run of the backend at all, is NOT MEASURED, which fails: an acceptance test that measured nothing passed
 * nothing.
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

    /** FAILED when any verdict fails, else OK. */
    public static ExitCode exitCode(final List<Verdict> verdicts) {
        return verdicts.stream().allMatch(Verdict::pass) ? ExitCode.OK : ExitCode.FAILED;
    }

    private static Verdict judge(final Reference ref, final Run run, final ResultSet set) {
        final String name = set.nameOf(run);
        final List<Result> rs = set.of(run).stream()
            .filter(r -> r.measured() && r.collective().equals(ref.collective().specName()))
            .filter(r -> ref.dtype() == null || ref.dtype().specName().equals(r.dtype())).toList();
        if (rs.isEmpty()) {
            return new Verdict(ref, name, false, Double.NaN, 0, name + " measured no " + ref.collective().specName()
                + (ref.dtype() == null ? "" : " " + ref.dtype().specName()));
        }
        final String dtype = Series.main(rs.stream().map(Result::dtype).toList(), "float32");
        final String op = Series.main(rs.stream().map(Result::op).toList(), "sum");
        final List<Result> main = Series.preferred(rs.stream()
            .filter(r -> (r.dtype() == null || r.dtype().equals(dtype)) && (r.op() == null || r.op().equals(op)))
            .toList());
        final List<Result> inRange = main.stream()
            .filter(r -> r.sizeBytes() >= ref.minBytes() && r.sizeBytes() <= ref.maxBytes()).toList();
        if (inRange.isEmpty()) {
            return new Verdict(ref, name, false, Double.NaN, 0, name + " measured no size within "
                + SizeText.of(ref.minBytes()) + " - " + SizeText.of(ref.maxBytes()) + " (its sizes: "
                + SizeText.of(main.get(0).sizeBytes()) + " - " + SizeText.of(main.get(main.size() - 1).sizeBytes())
                + ")");
        }
        final double median = Analysis.median(inRange.stream().map(Result::busBw).toList());
        return new Verdict(ref, name, median >= ref.threshold(), median, inRange.size(), null);
    }
}
