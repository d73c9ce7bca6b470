package cctk.report;

import cctk.results.ResultSet;
import cctk.results.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How a run measured, in words, from the settings its result JSON records ({@code args}; an nccl-tests log gives
 * its iterations and warm-up): sizes asked as element counts (the seeds' 1M, 4M, 16M), timed iterations, warm-up,
 * repeats, the shortest timed loop, checked iterations, layouts, root, re-timing, and the alltoallv counts (their
 * spread, or the matrix file). A bare CSV records none.
 * <b>Note:</b> threadsafe (no state).
 */
final class Parameters {

    private Parameters() {
    }

    /** {@code iterations 20, warm-up 5, repeats 3, ...}, or that the run's files record none. */
    static String of(final ResultSet set, final Run run) {
        final Map<String, Object> a = run.args();
        final List<String> out = new ArrayList<>();
        if (a.get("sizes") instanceof List<?> sizes && !sizes.isEmpty() && sizes.stream().allMatch(o -> o instanceof
            String t && t.matches("[0-9]{1,18} elements"))) {
            out.add("sizes asked as element counts: " + String.join(", ", sizes.stream().map(o -> AskedElements.count(
                Long.parseLong(((String) o).split(" ")[0]))).toList()) + " elements");
        }
        add(out, "iterations", a.get("iters"));
        add(out, "warm-up", a.get("warmup_iters"));
        add(out, "repeats", a.get("repeats"));
        if (a.get("window_ms") instanceof Number w) {
            out.add(w.doubleValue() > 0 ? "timed loops of at least " + w + " ms" : "exactly the iterations per loop");
        }
        add(out, "checked iterations", a.get("check_iters"));
        add(out, "in-place", a.get("in_place"));
        add(out, "root", a.get("root"));
        if (a.get("retime") instanceof Boolean b) {
            out.add(b ? "loops re-timed after a JIT compile or a collection" : "loops never re-timed");
        }
        if (a.get("alltoallv") instanceof Map<?, ?> v && set.of(run).stream().anyMatch(r -> r.collective()
            .equals("alltoallv"))) {
            out.add(v.get("matrix_file") != null ? "alltoallv counts from " + v.get("matrix_file")
                : "alltoallv counts spread " + v.get("spread") + "x (no matrix file)");
        }
        return out.isEmpty() ? "not recorded (its files do not say)" : String.join(", ", out);
    }

    private static void add(final List<String> out, final String name, final Object value) {
        if (value != null) {
            out.add(name + " " + value);
        }
    }
}
