package cctk.analysis;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads cctk's result JSON: the run's header (who, where, references) and its rows. */
final class JsonResults {

    private JsonResults() {
    }

    /**
     * The run a JSON document describes, or null with a problem when it is not a cctk result (another tool's
     * JSON) or uses other units.
     */
    static Run run(final Path file, final Object doc, final List<String> problems) {
        if (!(doc instanceof Map<?, ?> m) || !(m.get("backend") instanceof String backend)
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
        final List<String> hosts = new ArrayList<>();
        if (m.get("ranks") instanceof List<?> ranks) {
            for (final Object line : ranks) {
                final String[] words = String.valueOf(line).split("\\s+");
                for (int i = 0; i + 1 < words.length; i++) {
                    if (words[i].equals("host") && !hosts.contains(words[i + 1])) {
                        hosts.add(words[i + 1]);
                    }
                }
            }
        }
        final Map<?, ?> args = m.get("args") instanceof Map<?, ?> a ? a : Map.of();
        final boolean complete = !file.toString().endsWith(".part") && !"INCOMPLETE".equals(m.get("status"));
        return new Run(file.toString(), backend, world.intValue(),
            args.get("cluster") instanceof String c ? c : null, str(m.get("job_id")), str(m.get("start_time")),
            List.copyOf(hosts), complete, ReferenceJson.decode(args.get("references")));
    }

    /** The rows of a cctk result JSON, for {@code run}. */
    static List<Result> rows(final Path file, final Object doc, final Run run, final List<String> problems) {
        final List<Result> out = new ArrayList<>();
        int bad = 0;
        for (final Object o : (List<?>) ((Map<?, ?>) doc).get("rows")) {
            if (!(o instanceof Map<?, ?> r) || !(r.get("collective") instanceof String coll)
                || !(r.get("size_bytes") instanceof Double size)) {
                bad++;
                continue;
            }
            out.add(new Result(run, coll, str(r.get("dtype")), str(r.get("op")),
                r.get("root") instanceof Double root ? root.intValue() : -1, size.longValue(), whole(r.get("count")),
                Boolean.TRUE.equals(r.get("in_place")), num(r.get("time_us")), num(r.get("min_us")),
                num(r.get("p50_us")), num(r.get("p99_us")), num(r.get("cv_pct")), num(r.get("algbw_gbps")),
                num(r.get("busbw_gbps")), r.get("wrong") instanceof Double w ? w.longValue() : -1,
                str(r.get("skipped"))));
        }
        if (bad > 0) {
            problems.add(file + ": " + bad + " rows without collective or size_bytes; skipped, the rest kept");
        }
        return out;
    }

    private static String str(final Object o) {
        return o instanceof String s ? s : null;
    }

    private static double num(final Object o) {
        return o instanceof Double d ? d : Double.NaN;
    }

    private static long whole(final Object o) {
        return o instanceof Double d ? d.longValue() : 0;
    }
}
