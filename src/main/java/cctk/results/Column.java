package cctk.results;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The schema of cctk's results, once: every column of the CSV with its name, its kind and where it appears. The
 * measurement columns are also the keys of a JSON row; backend and world size head a run's CSV rows and the JSON
 * document; the combined CSV of a report adds the run columns in front. Writers and readers go through this enum,
 * so a name is written in one place.
 */
public enum Column {
    SOURCE("source", Scope.COMBINED, Kind.TEXT),
    CLUSTER("cluster", Scope.COMBINED, Kind.TEXT),
    JOB_ID("job_id", Scope.COMBINED, Kind.TEXT),
    START("start", Scope.COMBINED, Kind.TEXT),
    HOSTS("hosts", Scope.COMBINED, Kind.TEXT),
    COMPLETE("complete", Scope.COMBINED, Kind.FLAG),
    BACKEND("backend", Scope.RUN, Kind.TEXT),
    WORLD_SIZE("world_size", Scope.RUN, Kind.WHOLE),
    COLLECTIVE("collective", Scope.ROW, Kind.TEXT),
    DTYPE("dtype", Scope.ROW, Kind.TEXT),
    OP("op", Scope.ROW, Kind.TEXT),
    ROOT("root", Scope.ROW, Kind.WHOLE),
    SIZE_BYTES("size_bytes", Scope.ROW, Kind.WHOLE),
    COUNT("count", Scope.ROW, Kind.WHOLE),
    IN_PLACE("in_place", Scope.ROW, Kind.FLAG),
    TIME_US("time_us", Scope.ROW, Kind.NUMBER),
    MIN_US("min_us", Scope.ROW, Kind.NUMBER),
    P50_US("p50_us", Scope.ROW, Kind.NUMBER),
    P99_US("p99_us", Scope.ROW, Kind.NUMBER),
    CV_PCT("cv_pct", Scope.ROW, Kind.NUMBER),
    ALGBW_GBPS("algbw_gbps", Scope.ROW, Kind.NUMBER),
    BUSBW_GBPS("busbw_gbps", Scope.ROW, Kind.NUMBER),
    WRONG("wrong", Scope.ROW, Kind.WHOLE),
    SKIPPED("skipped", Scope.ROW, Kind.TEXT),
    REPEATS("repeats", Scope.ROW, Kind.WHOLE),
    ITERS("iters", Scope.ROW, Kind.WHOLE),
    ATTEMPTS("attempts", Scope.ROW, Kind.WHOLE),
    SPREAD_PCT("spread_pct", Scope.ROW, Kind.NUMBER),
    REPEAT_MIN_US("repeat_min_us", Scope.ROW, Kind.NUMBER),
    REPEAT_MAX_US("repeat_max_us", Scope.ROW, Kind.NUMBER),
    FIRST_TIME_US("first_time_us", Scope.ROW, Kind.NUMBER),
    RETIMED("retimed", Scope.ROW, Kind.TEXT),
    TIME_ACROSS_RANKS("time_across_ranks", Scope.ROW, Kind.TEXT),
    CROSSCORE_US("crosscore_us", Scope.ROW, Kind.NUMBER);

    /** Where a column appears. */
    public enum Scope {
        /** Only in a report's combined CSV. */
        COMBINED,
        /** In every CSV row; once per JSON document. */
        RUN,
        /** In every CSV row and every JSON row. */
        ROW
    }

    /** What a cell holds. */
    public enum Kind {
        /** Text, empty for none. */
        TEXT,
        /** A whole number ({@code long}), empty for none. */
        WHOLE,
        /** A finite decimal, empty for none (a skipped measurement). */
        NUMBER,
        /** {@code true} or {@code false}. */
        FLAG
    }

    /** The largest world size (and root) read: 2^24 ranks. */
    public static final long MAX_WORLD = 1L << 24;

    /** The columns a cctk CSV must have to be read. */
    public static final List<Column> REQUIRED = List.of(BACKEND, WORLD_SIZE, COLLECTIVE, SIZE_BYTES, TIME_US,
        BUSBW_GBPS);

    private static final Column[] VALUES = values();

    private final String header;
    private final Scope scope;
    private final Kind kind;

    Column(final String header, final Scope scope, final Kind kind) {
        this.header = header;
        this.scope = scope;
        this.kind = kind;
    }

    /** The name in a CSV header and a JSON row: {@code time_us}. */
    public String header() {
        return header;
    }

    public Scope scope() {
        return scope;
    }

    public Kind kind() {
        return kind;
    }

    /** The columns of a run's CSV ({@code combined}: of a report's combined CSV), in order. */
    public static List<Column> csv(final boolean combined) {
        return Arrays.stream(VALUES).filter(c -> combined || c.scope != Scope.COMBINED).toList();
    }

    /** The header line of a run's CSV ({@code combined}: of a report's combined CSV). */
    public static String csvHeader(final boolean combined) {
        return String.join(",", csv(combined).stream().map(Column::header).toList());
    }

    /** The column named {@code name} (any case, spaces around ignored), or null. */
    public static Column named(final String name) {
        final String n = name.strip().toLowerCase(Locale.ROOT);
        for (final Column c : VALUES) {
            if (c.header.equals(n)) {
                return c;
            }
        }
        return null;
    }

    /** The value of this column for {@code r}: a String, Long, Double or Boolean, or null for none. */
    public Object of(final Result r) {
        final Run run = r.run();
        return switch (this) {
            case SOURCE -> run.source();
            case CLUSTER -> run.cluster();
            case JOB_ID -> run.jobId();
            case START -> run.start();
            case HOSTS -> run.hosts().isEmpty() ? null : String.join(" ", run.hosts());
            case COMPLETE -> run.complete();
            case BACKEND -> run.backend();
            case WORLD_SIZE -> (long) run.world();
            case COLLECTIVE -> r.collective();
            case DTYPE -> r.dtype();
            case OP -> r.op();
            case ROOT -> r.root() < 0 ? null : (long) r.root();
            case SIZE_BYTES -> r.sizeBytes();
            case COUNT -> r.count();
            case IN_PLACE -> r.inPlace();
            case TIME_US -> finite(r.timeUs());
            case MIN_US -> finite(r.minUs());
            case P50_US -> finite(r.p50Us());
            case P99_US -> finite(r.p99Us());
            case CV_PCT -> finite(r.cvPct());
            case ALGBW_GBPS -> finite(r.algBw());
            case BUSBW_GBPS -> finite(r.busBw());
            case WRONG -> r.wrong() < 0 ? null : r.wrong();
            case SKIPPED -> r.skipped();
            case REPEATS -> r.how().known() ? (long) r.how().repeats() : null;
            case ITERS -> r.how().known() && r.how().iters() > 0 ? (long) r.how().iters() : null;
            case ATTEMPTS -> r.how().known() ? (long) r.how().attempts() : null;
            case SPREAD_PCT -> finite(r.how().spreadPct());
            case REPEAT_MIN_US -> finite(r.how().repeatMinUs());
            case REPEAT_MAX_US -> finite(r.how().repeatMaxUs());
            case FIRST_TIME_US -> finite(r.how().firstTimeUs());
            case RETIMED -> r.how().retimed();
            case TIME_ACROSS_RANKS -> r.how().timeAcrossRanks();
            case CROSSCORE_US -> finite(r.how().crossCoreUs());
        };
    }

    /** The CSV cell of this column for {@code r}: exact numbers ({@link Numbers#exact}), empty for none. */
    public String cell(final Result r) {
        final Object v = of(r);
        if (v == null) {
            return "";
        }
        return v instanceof Double d ? Numbers.exact(d) : v.toString();
    }

    private static Double finite(final double v) {
        return Double.isFinite(v) ? v : null;
    }

    /**
     * A cell's text read as this column's kind: null for an empty cell; an {@link IllegalArgumentException} naming
     * the column and the value when it is not one.
     */
    public Object parse(final String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        return switch (kind) {
            case TEXT -> text;
            case WHOLE -> Checks.whole(header, text, 0, Long.MAX_VALUE);
            case NUMBER -> Checks.number(header, text);
            case FLAG -> Checks.flag(header, text);
        };
    }

    /** A JSON value read as this column's kind; null for null or absent. */
    public Object fromJson(final Object v) {
        if (v == null) {
            return null;
        }
        final boolean fits = switch (kind) {
            case TEXT -> v instanceof String;
            case WHOLE -> v instanceof Long || v instanceof Double;
            case NUMBER -> v instanceof Number;
            case FLAG -> v instanceof Boolean;
        };
        if (!fits) {
            throw Checks.bad(header, String.valueOf(v), "not " + kind.name().toLowerCase(Locale.ROOT));
        }
        if (kind == Kind.WHOLE) {
            return Checks.whole(header, (Number) v, 0, Long.MAX_VALUE);
        }
        if (kind == Kind.NUMBER) {
            return Checks.finite(header, ((Number) v).doubleValue());
        }
        return v;
    }
}
