package cctk.analysis;

import cctk.Printable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/** Reads cctk's result JSON: the run's header (who, where, references) and its rows. */
final class JsonResults {

    private static final int MAX_ROW_PROBLEMS = 5;

    private JsonResults() {
    }

    /**
     * The run a JSON document describes, or null with a problem when it is not a cctk result (another tool's
     * JSON) or uses other units.
     */
    static Run run(final Path file, final Object doc, final List<String> problems) {
        if (!(doc instanceof Map<?, ?> m) || !(m.get("backend") instanceof String backend) || backend.isBlank()
            || !(m.get("world_size") instanceof Double world) || !(m.get("rows") instanceof List)) {
            problems.add(file + ": not a cctk result file: JSON without backend, world_size and rows (another"
                + " tool's output?); skipped.");
            return null;
        }
        if (m.get("units") instanceof Map<?, ?> u && (!"us".equals(u.get("time")) || !"bytes".equals(u.get("size"))
            || !String.valueOf(u.get("bandwidth")).startsWith("GB/s"))) {
            problems.add(file + ": mixed units: it records time in " + u.get("time") + ", size in " + u.get("size")
                + " and bandwidth in " + u.get("bandwidth") + ", where cctk reads us, bytes and GB/s; skipped.");
            return null;
        }
        final long w;
        try {
            w = Checks.whole("world_size", world, 1, Checks.MAX_WORLD);
        } catch (final IllegalArgumentException e) {
            problems.add(file + ": " + e.getMessage() + "; skipped");
            return null;
        }
        final List<String> hosts = new ArrayList<>();
        if (m.get("ranks") instanceof List<?> ranks) {
            for (final Object line : ranks) {
                final String[] words = String.valueOf(line).split("\\s+");
                for (int i = 0; i + 1 < words.length; i++) {
                    if (words[i].equals("host") && !hosts.contains(Printable.of(words[i + 1]))) {
                        hosts.add(Printable.of(words[i + 1]));
                    }
                }
            }
        }
        final Map<?, ?> args = m.get("args") instanceof Map<?, ?> a ? a : Map.of();
        final boolean complete = !file.toString().endsWith(".part") && !"INCOMPLETE".equals(m.get("status"));
        return new Run(Printable.of(file.toString()), Printable.of(backend), (int) w,
            Printable.of(args.get("cluster") instanceof String c ? c : null), Printable.of(str(m.get("job_id"))),
            Printable.of(str(m.get("start_time"))),
            List.copyOf(hosts), complete, ReferenceJson.decode(args.get("references")));
    }

    /** The rows of a cctk result JSON, for {@code run}; a bad row is named by its JSON path and skipped. */
    static List<Result> rows(final Path file, final Object doc, final Run run, final List<String> problems,
                             final UnaryOperator<String> names) {
        final List<Result> out = new ArrayList<>();
        int bad = 0;
        int badValues = 0;
        final List<?> rows = (List<?>) ((Map<?, ?>) doc).get("rows");
        for (int i = 0; i < rows.size(); i++) {
            if (!(rows.get(i) instanceof Map<?, ?> r) || !(r.get("collective") instanceof String coll)
                || coll.isBlank() || !(r.get("size_bytes") instanceof Double size)) {
                bad++;
                continue;
            }
            try {
                out.add(Checks.measurement(new Result(run, names.apply(Printable.of(coll)), text(r, "dtype", names),
                    text(r, "op", names), r.get("root") instanceof Double root
                    ? (int) Checks.whole("root", root, 0, Checks.MAX_WORLD) : -1,
                    Checks.whole("size_bytes", size, 0, Checks.MAX_SIZE), whole(r, "count", 0),
                    Boolean.TRUE.equals(r.get("in_place")), num(r.get("time_us")), num(r.get("min_us")),
                    num(r.get("p50_us")), num(r.get("p99_us")), num(r.get("cv_pct")), num(r.get("algbw_gbps")),
                    num(r.get("busbw_gbps")), whole(r, "wrong", -1), text(r, "skipped", names))));
            } catch (final IllegalArgumentException e) {
                if (++badValues <= MAX_ROW_PROBLEMS) {
                    problems.add(file + ": rows[" + i + "]." + e.getMessage() + "; row skipped, the rest kept");
                }
            }
        }
        if (rows.isEmpty()) {
            problems.add(file + ": a cctk result JSON with no rows (the run measured nothing?)");
        }
        if (bad > 0) {
            problems.add(file + ": " + bad + " rows without collective or size_bytes; skipped, the rest kept");
        }
        if (badValues > MAX_ROW_PROBLEMS) {
            problems.add(file + ": " + (badValues - MAX_ROW_PROBLEMS) + " more bad rows skipped");
        }
        return out;
    }

    private static String text(final Map<?, ?> r, final String key, final UnaryOperator<String> names) {
        final String s = str(r.get(key));
        return s == null ? null : names.apply(Printable.of(s));
    }

    private static long whole(final Map<?, ?> r, final String key, final long absent) {
        return r.get(key) instanceof Double d ? Checks.whole(key, d, 0, key.equals("wrong") ? Long.MAX_VALUE
            : Checks.MAX_SIZE) : absent;
    }

    private static String str(final Object o) {
        return o instanceof String s ? s : null;
    }

    private static double num(final Object o) {
        return o instanceof Double d ? d : Double.NaN;
    }

}
