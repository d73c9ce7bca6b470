package cctk.results;

import cctk.Printable;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The values a result file may hold, checked once for the CSV and the JSON reader: sizes, counts and wrong elements
 * are whole numbers from 0 to 2^63 - 1, world sizes 1 to 2^24, a measured call takes a finite time above 0, and
 * every other figure is finite and not negative; an element type or operator is one that cctk or nccl-tests
 * measures (a name outside them is no measurement of a known kind, and would reach every report). A bad value is an
 * {@link IllegalArgumentException} whose message names the field and the value, for the reader to prefix with the
 * file and line or JSON path.
 * <b>Note:</b> threadsafe (no state).
 */
public final class Checks {

    private static final Pattern DECIMAL = Pattern.compile("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d{1,4})?");
    private static final Pattern WHOLE = Pattern.compile("[-+]?\\d{1,19}");
    /**
     * Element types by cctk's names: cctk's own ({@code cctk.comm.DType}) and those nccl-tests measures beyond them
     * (its {@code uint32} and {@code uint64}, and the 8-bit floats of recent releases).
     */
    static final Set<String> DTYPES = Set.of("float32", "float64", "float16", "bfloat16", "int8", "uint8", "int32",
        "int64", "uint32", "uint64", "f8e4m3", "f8e5m2");
    /** Operators: cctk's ({@code cctk.comm.ReduceOp}) and nccl-tests' {@code mulsum} (NCCL's pre-multiplied sum). */
    static final Set<String> OPS = Set.of("sum", "prod", "min", "max", "avg", "mulsum");

    private Checks() {
    }

    /** A whole number written as text (CSV), from {@code min} to {@code max}. */
    static long whole(final String field, final String text, final long min, final long max) {
        final String t = text.strip();
        final long v;
        try {
            if (!WHOLE.matcher(t).matches()) {
                throw new NumberFormatException();
            }
            v = Long.parseLong(t);
        } catch (final NumberFormatException e) {
            throw bad(field, text, "not a whole number from " + min + " to " + max);
        }
        if (v < min || v > max) {
            throw bad(field, text, "outside " + min + " .. " + max);
        }
        return v;
    }

    /** A whole number read from JSON (a Long, or a Double with no fraction), from {@code min} to {@code max}. */
    public static long whole(final String field, final Number n, final long min, final long max) {
        if (n instanceof Long l) {
            if (l < min || l > max) {
                throw bad(field, l.toString(), "outside " + min + " .. " + max);
            }
            return l;
        }
        final double v = n.doubleValue();
        if (!(v >= min && v <= max) || v != Math.rint(v) || Math.abs(v) >= 0x1p63) {
            throw bad(field, shown(v), "not a whole number from " + min + " to " + max);
        }
        return (long) v;
    }

    /** A decimal number written as text (CSV): plain or exponent notation, finite (no NaN, no Infinity). */
    static double number(final String field, final String text) {
        final String t = text.strip();
        if (!DECIMAL.matcher(t).matches()) {
            throw bad(field, text, "not a decimal number");
        }
        return finite(field, Double.parseDouble(t));
    }

    /** {@code v} when finite. */
    public static double finite(final String field, final double v) {
        if (!Double.isFinite(v)) {
            throw bad(field, shown(v), "not a finite number");
        }
        return v;
    }

    /** {@code true} or {@code false}, any case. */
    static boolean flag(final String field, final String text) {
        final String t = text.strip();
        if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(t);
        }
        throw bad(field, text, "not true or false");
    }

    /** Checks the figures of a row: a known type and operator, the time of a measured call above 0, none negative. */
    static Result measurement(final Result r) {
        if (r.collective() == null || r.collective().isBlank()) {
            throw bad("collective", String.valueOf(r.collective()), "a collective's name is needed");
        }
        if (r.dtype() != null) {
            dtype("dtype", r.dtype());
        }
        if (r.op() != null) {
            op("op", r.op());
        }
        if (r.skipped() == null && !(r.timeUs() > 0)) {
            throw bad("time_us", shown(r.timeUs()), "a measured call takes a finite time above 0 us");
        }
        figure("time_us", r.timeUs());
        figure("min_us", r.minUs());
        figure("p50_us", r.p50Us());
        figure("p99_us", r.p99Us());
        figure("cv_pct", r.cvPct());
        figure("algbw_gbps", r.algBw());
        figure("busbw_gbps", r.busBw());
        figure("spread_pct", r.how().spreadPct());
        figure("repeat_min_us", r.how().repeatMinUs());
        figure("repeat_max_us", r.how().repeatMaxUs());
        figure("first_time_us", r.how().firstTimeUs());
        figure("crosscore_us", r.how().crossCoreUs());
        if (r.root() > Column.MAX_WORLD) {
            throw bad("root", Integer.toString(r.root()), "outside 0 .. " + Column.MAX_WORLD);
        }
        return r;
    }

    /** {@code name} when it is an element type of {@link #DTYPES} (any case), else an error naming it. */
    static String dtype(final String field, final String name) {
        if (!DTYPES.contains(name.toLowerCase(Locale.ROOT))) {
            throw bad(field, name, "not an element type cctk or nccl-tests measures (" + String.join(", ",
                DTYPES.stream().sorted().toList()) + ")");
        }
        return name;
    }

    /** {@code name} when it is an operator of {@link #OPS} (any case), else an error naming it. */
    public static String op(final String field, final String name) {
        if (!OPS.contains(name.toLowerCase(Locale.ROOT))) {
            throw bad(field, name, "not an operator cctk or nccl-tests measures (" + String.join(", ",
                OPS.stream().sorted().toList()) + ")");
        }
        return name;
    }

    /** A world size: 1 .. 2^24. */
    static int world(final Object v) {
        final long w = v instanceof Long l ? l : -1;
        if (w < 1 || w > Column.MAX_WORLD) {
            throw bad("world_size", String.valueOf(v), "outside 1 .. " + Column.MAX_WORLD);
        }
        return (int) w;
    }

    /** NaN (absent) or not negative. */
    private static void figure(final String field, final double v) {
        if (!Double.isNaN(v) && !(v >= 0)) {
            throw bad(field, shown(v), "not a finite, non-negative number");
        }
    }

    private static String shown(final double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    public static IllegalArgumentException bad(final String field, final String value, final String why) {
        final String v = value.length() > 40 ? value.substring(0, 40) + "..." : value;
        return new IllegalArgumentException(field + " is '" + Printable.of(v) + "': " + why);
    }
}
