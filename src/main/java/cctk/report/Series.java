package cctk.report;

import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import cctk.results.judge.Selection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One line of a plot: one run's measurements of one collective, element type and operator, one per size,
 * ascending, out-of-place where it was measured, else in-place ({@link Selection#preferred}). Every type and
 * operator a run measured has its own series, the run's main ones (float32 and sum when measured) first, so plots
 * and figures compare like with like and nothing measured is silently left out.
 *
 * @param run        the run
 * @param name       the run's name in legends ({@link ResultSet#nameOf})
 * @param collective spec name
 * @param dtype      element type, or null (barrier)
 * @param op         reduce operator, or null
 * @param points     measured points, by ascending size
 */
public record Series(Run run, String name, String collective, String dtype, String op, List<Result> points) {

    /** Every series of a result set, built once per set: runs in order, collectives in first-seen order. */
    public static List<Series> of(final ResultSet set) {
        return set.derived(Series.class, Series::build);
    }

    private static List<Series> build(final ResultSet set) {
        final List<Series> out = new ArrayList<>();
        for (final Run run : set.runs()) {
            final List<Result> measured = set.of(run).stream().filter(Result::measured).toList();
            final String mainType = Selection.main(measured.stream().map(Result::dtype).toList(), "float32");
            final String mainOp = Selection.main(measured.stream().map(Result::op).toList(), "sum");
            final Map<String, Map<List<String>, List<Result>>> byColl = new LinkedHashMap<>();
            for (final Result r : measured) {
                byColl.computeIfAbsent(r.collective(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(java.util.Arrays.asList(r.dtype(), r.op()), k -> new ArrayList<>()).add(r);
            }
            final Comparator<List<String>> mainFirst = Comparator
                .comparing((List<String> k) -> !Objects.equals(k.get(0), mainType))
                .thenComparing(k -> !Objects.equals(k.get(1), mainOp));
            byColl.forEach((coll, kinds) -> kinds.keySet().stream().sorted(mainFirst).forEach(k -> out.add(
                new Series(run, set.nameOf(run), coll, k.get(0), k.get(1), Selection.preferred(kinds.get(k))))));
        }
        return out;
    }

    /** The collectives in the order they first appear. */
    public static List<String> collectives(final List<Series> series) {
        return series.stream().map(Series::collective).distinct().toList();
    }

    /** The element types in the order they first appear (null for none). */
    public static List<String> dtypes(final List<Series> series) {
        return series.stream().map(Series::dtype).distinct().toList();
    }

    /** {@code float32 sum}, {@code float32}, or "" for a barrier. */
    public String kind() {
        return (Objects.toString(dtype, "") + " " + Objects.toString(op, "")).strip();
    }

    /** True when its points carry data (a barrier's do not). */
    public boolean carriesData() {
        return points.stream().anyMatch(p -> Double.isFinite(p.busBw()) && p.sizeBytes() > 0);
    }

    /** True when the two series measure the same collective, type and operator (and may be compared). */
    public boolean sameKind(final Series o) {
        return collective.equals(o.collective) && Objects.equals(dtype, o.dtype) && Objects.equals(op, o.op);
    }

    /** The point whose size is nearest to {@code bytes} on a log scale, or null when empty. */
    public Result nearest(final long bytes) {
        Result best = null;
        double bestDistance = Double.MAX_VALUE;
        for (final Result p : points) {
            final double d = Math.abs(Math.log(Math.max(1, p.sizeBytes())) - Math.log(Math.max(1, bytes)));
            if (d < bestDistance) {
                best = p;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Its points by nominal size ({@link NominalSizes}), ascending. */
    java.util.TreeMap<Long, Result> byNominal(final NominalSizes nominal) {
        final java.util.TreeMap<Long, Result> out = new java.util.TreeMap<>();
        points.forEach(p -> out.putIfAbsent(nominal.of(p.sizeBytes()), p));
        return out;
    }

    /** The sizes of all points of {@code series}. */
    static List<Long> sizes(final List<Series> series) {
        final List<Long> out = new ArrayList<>();
        series.forEach(s -> s.points().forEach(p -> out.add(p.sizeBytes())));
        return out;
    }

    /** The point measured at exactly {@code bytes}, or null. */
    public Result at(final long bytes) {
        for (final Result p : points) {
            if (p.sizeBytes() == bytes) {
                return p;
            }
        }
        return null;
    }
}
