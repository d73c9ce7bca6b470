package cctk.report;

import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import cctk.results.Selection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One line of a plot: one run's measurements of one collective, one per size, ascending. Per size it takes the
 * preferred measurement ({@link Selection}): the run's main type (float32 when measured), its main operator (sum
 * when measured) and out-of-place before in-place; so plots and figures compare like with like.
 *
 * @param run        the run
 * @param name       the run's name in legends ({@link ResultSet#nameOf})
 * @param collective spec name
 * @param points     measured points, by ascending size
 */
public record Series(Run run, String name, String collective, List<Result> points) {

    /** Every series of a result set, built once per set: runs in order, collectives in first-seen order. */
    public static List<Series> of(final ResultSet set) {
        return set.derived(Series.class, Series::build);
    }

    private static List<Series> build(final ResultSet set) {
        final List<Series> out = new ArrayList<>();
        for (final Run run : set.runs()) {
            final Map<String, List<Result>> byColl = new LinkedHashMap<>();
            for (final Result r : Selection.mainKind(set.of(run))) {
                byColl.computeIfAbsent(r.collective(), k -> new ArrayList<>()).add(r);
            }
            byColl.forEach((coll, list) -> out.add(new Series(run, set.nameOf(run), coll,
                Selection.preferred(list))));
        }
        return out;
    }

    /** The collectives in the order they first appear. */
    public static List<String> collectives(final List<Series> series) {
        return series.stream().map(Series::collective).distinct().toList();
    }

    /** The element type the series shows (null for a barrier). */
    public String dtype() {
        return points.isEmpty() ? null : points.get(0).dtype();
    }

    /** The operator the series shows, or null. */
    public String op() {
        return points.isEmpty() ? null : points.get(0).op();
    }

    /** True when its points carry data (a barrier's do not). */
    public boolean carriesData() {
        return points.stream().anyMatch(p -> Double.isFinite(p.busBw()) && p.sizeBytes() > 0);
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
}
