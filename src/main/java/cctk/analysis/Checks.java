package cctk.analysis;

import cctk.Printable;
import java.util.regex.Pattern;

/**
 * The values a result file may hold, checked once for the CSV and the JSON reader: sizes are whole bytes from 0 to
 * 2^53 (exact in a double), world sizes 1 to 2^24, a measured call takes a finite time above 0, and every other
 * figure is finite and not negative. A bad value is an {@link IllegalArgumentException} whose message names the
 * field and the value, for the reader to prefix with the file and line or JSON path.
 */
final class Checks {

    /** The largest size or count read: 2^53 bytes, exact in a double. */
    static final long MAX_SIZE = 1L << 53;
    /** The largest world size read. */
    static final long MAX_WORLD = 1L << 24;
    private static final Pattern DECIMAL = Pattern.compile("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d{1,4})?");

    private Checks() {
    }

    /** A whole number written as text (CSV), from {@code min} to {@code max}. */
    static long whole(final String field, final String text, final long min, final long max) {
        final long v;
        try {
            v = Long.parseLong(text.strip());
        } catch (final NumberFormatException e) {
            throw bad(field, text, "not a whole number from " + min + " to " + max);
        }
        if (v < min || v > max) {
            throw bad(field, text, "outside " + min + " .. " + max);
        }
        return v;
    }

    /** A whole number read as a JSON number, from {@code min} to {@code max}. */
    static long whole(final String field, final double v, final long min, final long max) {
        if (!(v >= min && v <= max) || v != Math.rint(v)) {
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
        final double v = Double.parseDouble(t);
        if (!Double.isFinite(v)) {
            throw bad(field, text, "not a finite number");
        }
        return v;
    }

    /** Checks the figures of a row: the time of a measured call above 0, no figure negative or infinite. */
    static Result measurement(final Result r) {
        if (r.skipped() == null && !(r.timeUs() > 0 && Double.isFinite(r.timeUs()))) {
            throw bad("time_us", shown(r.timeUs()), "a measured call takes a finite time above 0 us");
        }
        figure("time_us", r.timeUs());
        figure("min_us", r.minUs());
        figure("p50_us", r.p50Us());
        figure("p99_us", r.p99Us());
        figure("cv_pct", r.cvPct());
        figure("algbw_gbps", r.algBw());
        figure("busbw_gbps", r.busBw());
        if (r.collective() == null || r.collective().isBlank()) {
            throw bad("collective", String.valueOf(r.collective()), "a collective's name is needed");
        }
        return r;
    }

    /** NaN (absent) or finite and not negative. */
    private static void figure(final String field, final double v) {
        if (!Double.isNaN(v) && !(v >= 0 && Double.isFinite(v))) {
            throw bad(field, shown(v), "not a finite, non-negative number");
        }
    }

    private static String shown(final double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    private static IllegalArgumentException bad(final String field, final String value, final String why) {
        final String v = value.length() > 40 ? value.substring(0, 40) + "..." : value;
        return new IllegalArgumentException(field + " is '" + Printable.of(v) + "': " + why);
    }
}
