package cctk.results.judge;

import cctk.results.Result;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Which measurements stand for a run where one figure is wanted per size, shared by the judge of references and
 * the report's series, so both compare like with like: the run's main type (float32 when measured), its main
 * operator (sum when measured), out-of-place before in-place; and the median that figures use.
 * <b>Note:</b> threadsafe (no state).
 */
public final class Selection {

    private Selection() {
    }

    /** {@code wanted} when it occurs, else the most frequent non-null value, else null. */
    public static String main(final List<String> values, final String wanted) {
        if (values.contains(wanted)) {
            return wanted;
        }
        final Map<String, Long> counts = new LinkedHashMap<>();
        values.stream().filter(Objects::nonNull).forEach(v -> counts.merge(v, 1L, Long::sum));
        return counts.entrySet().stream().max(Comparator.comparingLong(Map.Entry::getValue))
            .map(Map.Entry::getKey).orElse(null);
    }

    /** The measured results of the main type and operator among {@code rs} ({@link #main}). */
    public static List<Result> mainKind(final List<Result> rs) {
        final String dtype = main(rs.stream().map(Result::dtype).toList(), "float32");
        final String op = main(rs.stream().map(Result::op).toList(), "sum");
        return rs.stream().filter(r -> r.measured() && (r.dtype() == null || r.dtype().equals(dtype))
            && (r.op() == null || r.op().equals(op))).toList();
    }

    /** One measurement per size, ascending: out-of-place when there is one. */
    public static List<Result> preferred(final List<Result> rs) {
        final TreeMap<Long, Result> bySize = new TreeMap<>();
        for (final Result r : rs) {
            bySize.merge(r.sizeBytes(), r, (a, b) -> a.inPlace() && !b.inPlace() ? b : a);
        }
        return List.copyOf(bySize.values());
    }

    /** The median of the finite values, NaN when there is none. */
    public static double median(final List<Double> values) {
        final List<Double> v = values.stream().filter(Double::isFinite).sorted().toList();
        if (v.isEmpty()) {
            return Double.NaN;
        }
        final int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }
}
