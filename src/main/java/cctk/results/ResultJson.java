package cctk.results;

import cctk.Printable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * cctk's result JSON in both directions: the run's header ({@code cctk_version}, {@code start_time}, {@code spec},
 * {@code job_id}, {@code backend}, {@code world_size}, {@code units}, {@code args} with {@code cluster} and
 * {@code references}, {@code environment}, {@code ranks}), its {@code rows} (one object per measurement, keyed by
 * {@link Column}) and, once the run ended, {@code wrong}, {@code average_bus_bandwidth}, {@code status} and
 * {@code error}. Text goes through {@link cctk.Json}.
 * <b>Note:</b> threadsafe (no state).
 */
public final class ResultJson {

    /** The key of the measurements' array. */
    static final String ROWS = "rows";
    private static final int MAX_ROW_PROBLEMS = 5;
    private static final Map<String, Object> UNITS = Map.of("time", "us", "bandwidth", "GB/s (1e9 B/s)", "size",
        "bytes");

    private ResultJson() {
    }

    /** The document of {@code run} with {@code rows}; the end fields only once the run has a status. */
    static Map<String, Object> document(final Run run, final List<Map<String, Object>> rows, final long wrong,
                                        final boolean checked, final double avgBusBw) {
        final Map<String, Object> doc = head(run);
        doc.put(ROWS, rows);
        if (run.status() != null) {
            doc.putAll(end(run, wrong, checked, avgBusBw));
        }
        return doc;
    }

    /** The fields of {@link #document} before its {@code rows}, in order. */
    static Map<String, Object> head(final Run run) {
        final Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("cctk_version", run.version());
        doc.put("start_time", run.start());
        doc.put("spec", run.spec());
        doc.put("job_id", run.jobId());
        doc.put("backend", run.backend());
        doc.put("world_size", run.world());
        doc.put("units", new LinkedHashMap<>(UNITS));
        final Map<String, Object> args = new LinkedHashMap<>(run.args());
        args.put("cluster", run.cluster());
        args.put("references", run.references().stream().map(ResultJson::reference).toList());
        doc.put("args", args);
        doc.put("environment", new LinkedHashMap<>(run.environment()));
        doc.put("ranks", run.ranks().stream().map(RankInfo::toJson).toList());
        return doc;
    }

    /** The fields of {@link #document} after its {@code rows} once the run ended ({@code run} has a status). */
    static Map<String, Object> end(final Run run, final long wrong, final boolean checked, final double avgBusBw) {
        final Map<String, Object> end = new LinkedHashMap<>();
        end.put("wrong", checked ? wrong : null);
        end.put("average_bus_bandwidth", avgBusBw);
        end.put("status", run.status());
        end.put("error", run.error());
        return end;
    }

    /** One measurement as a JSON row. */
    static Map<String, Object> row(final Result r) {
        final Map<String, Object> o = new LinkedHashMap<>();
        for (final Column c : Column.values()) {
            if (c.scope() == Column.Scope.ROW) {
                o.put(c.header(), c.of(r));
            }
        }
        return o;
    }

    private static Map<String, Object> reference(final Reference r) {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("collective", r.collective());
        m.put("backend", r.backend());
        m.put("dtype", r.dtype());
        m.put("min_bytes", r.minBytes());
        m.put("max_bytes", r.maxBytes());
        m.put("busbw_gbps", r.busBwGbps());
        m.put("tolerance", r.tolerance());
        return m;
    }

    /**
     * The run a JSON document describes, or null with a problem when it is not a cctk result (another tool's JSON)
     * or uses other units.
     */
    public static Run run(final Path file, final Object doc, final List<String> problems) {
        if (!(doc instanceof Map<?, ?> m) || !(m.get("backend") instanceof String backend) || backend.isBlank()
            || !(m.get("world_size") instanceof Number world) || !(m.get("rows") instanceof List)) {
            problems.add(file + ": not a cctk result file: JSON without backend, world_size and rows (another"
                + " tool's output?); skipped.");
            return null;
        }
        if (m.get("units") instanceof Map<?, ?> u && (!"us".equals(u.get("time")) || !"bytes".equals(u.get("size"))
            || !String.valueOf(u.get("bandwidth")).startsWith("GB/s"))) {
            problems.add(file + ": mixed units: it records time in " + Printable.of(String.valueOf(u.get("time")))
                + ", size in " + Printable.of(String.valueOf(u.get("size"))) + " and bandwidth in "
                + Printable.of(String.valueOf(u.get("bandwidth"))) + ", where cctk reads us, bytes and GB/s; skipped.");
            return null;
        }
        final int w;
        try {
            w = Checks.world(world instanceof Long ? world : Checks.whole("world_size", world, 1, Column.MAX_WORLD));
        } catch (final IllegalArgumentException e) {
            problems.add(file + ": " + e.getMessage() + "; skipped");
            return null;
        }
        final Map<String, Object> args = new LinkedHashMap<>();
        if (m.get("args") instanceof Map<?, ?> a) {
            a.forEach((k, v) -> args.put(String.valueOf(k), v));
        }
        if (m.get("summary") instanceof Map<?, ?> sum && sum.get(CrossCoreReadings.ARG) instanceof Map<?, ?> end) {
            args.put(CrossCoreReadings.AT_END, end);
        }
        final Object cluster = args.remove("cluster");
        final List<Reference> refs = references(args.remove("references"));
        final List<RankInfo> ranks = ranks(m.get("ranks"));
        final Map<String, String> env = new LinkedHashMap<>();
        if (m.get("environment") instanceof Map<?, ?> e) {
            e.forEach((k, v) -> env.put(Printable.of(String.valueOf(k)), Printable.of(String.valueOf(v))));
        }
        final String status = str(m.get("status"));
        final boolean part = file.toString().endsWith(".part") && status == null;
        // a run whose rank 0 died has only part files; another rank may have said why beside them
        final String error = str(m.get("error")) == null && part ? cctk.CauseFile.read(file) : str(m.get("error"));
        return new Run(Printable.of(file.toString()), str(m.get("cctk_version")), str(m.get("spec")),
            str(m.get("job_id")), str(cluster), Printable.of(backend), w, str(m.get("start_time")), ranks,
            Run.hostsOf(ranks), env, args, refs, part ? Run.INCOMPLETE : status, error);
    }

    /** The rows of a cctk result JSON, for {@code run}; a bad row is named by its JSON path and skipped. */
    public static List<Result> rows(final Path file, final Object doc, final Run run, final List<String> problems,
                             final UnaryOperator<String> names) {
        final List<Result> out = new ArrayList<>();
        final Fields fields = new Fields(names);
        int bad = 0;
        int badValues = 0;
        final List<?> rows = (List<?>) ((Map<?, ?>) doc).get("rows");
        for (int i = 0; i < rows.size(); i++) {
            if (!(rows.get(i) instanceof Map<?, ?> r) || !(r.get("collective") instanceof String coll)
                || coll.isBlank() || !(r.get("size_bytes") instanceof Number)) {
                bad++;
                continue;
            }
            try {
                fields.clear();
                for (final Column c : Column.values()) {
                    if (c.scope() == Column.Scope.ROW) {
                        fields.put(c, c.fromJson(r.get(c.header())));
                    }
                }
                out.add(fields.result(run));
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

    /** The ranks as objects; lines of text (files of cctk before 0.2) give none. */
    private static List<RankInfo> ranks(final Object value) {
        final List<RankInfo> out = new ArrayList<>();
        if (value instanceof List<?> list) {
            for (final Object o : list) {
                if (o instanceof Map<?, ?> m && m.get("rank") instanceof Long rank && rank >= 0
                    && rank < Column.MAX_WORLD && m.get("host") instanceof String host) {
                    out.add(new RankInfo(rank.intValue(), Printable.of(host), m.get("pid") instanceof Long p ? p : 0,
                        small(m.get("local_rank")), small(m.get("node")), Printable.of(str(m.get("device"))),
                        Printable.of(str(m.get("nics"))), Printable.of(str(m.get("transports")))));
                }
            }
        }
        return out;
    }

    private static int small(final Object v) {
        return v instanceof Long l && l >= 0 && l < Column.MAX_WORLD ? l.intValue() : 0;
    }

    /** References read back; entries that do not make a reference are left out. */
    private static List<Reference> references(final Object value) {
        final List<Reference> out = new ArrayList<>();
        if (!(value instanceof List<?> list)) {
            return out;
        }
        for (final Object o : list) {
            if (o instanceof Map<?, ?> m && m.get("collective") instanceof String c && !c.isBlank()
                && m.get("min_bytes") instanceof Number min && m.get("max_bytes") instanceof Number max
                && m.get("busbw_gbps") instanceof Number bw && sane(min, max, bw, m.get("tolerance"))) {
                final double t = m.get("tolerance") instanceof Number tn ? tn.doubleValue()
                    : Reference.DEFAULT_TOLERANCE;
                out.add(new Reference(Printable.of(c), str(m.get("backend")), str(m.get("dtype")), min.longValue(),
                    max.longValue(), bw.doubleValue(), t));
            }
        }
        return out;
    }

    /** A recorded reference a spec could hold: whole sizes in order, a positive busbw and tolerance. */
    private static boolean sane(final Number min, final Number max, final Number bw, final Object tolerance) {
        final boolean sizes = min instanceof Long lo && max instanceof Long hi && lo >= 0 && lo <= hi;
        final boolean t = !(tolerance instanceof Number n) || n.doubleValue() > 0 && n.doubleValue() <= 1000;
        return sizes && bw.doubleValue() > 0 && Double.isFinite(bw.doubleValue()) && t;
    }

    private static String str(final Object o) {
        return o instanceof String s ? Printable.of(s) : null;
    }
}
