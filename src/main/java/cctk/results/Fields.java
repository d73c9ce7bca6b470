package cctk.results;

import cctk.Printable;
import java.util.function.UnaryOperator;

/**
 * The values of one row as read (CSV cells or a JSON row), by {@link Column}, and the {@link Result} they make: text
 * made safe to print and shared ({@code names} returns one copy of each repeated text), absent figures NaN, a
 * missing collective, size or (for a measured row) time an {@link IllegalArgumentException} naming the field.
 * <b>Note:</b> not threadsafe; one per reader, reused row after row.
 */
final class Fields {

    private final Object[] values = new Object[Column.values().length];
    private final UnaryOperator<String> names;

    Fields(final UnaryOperator<String> names) {
        this.names = names;
    }

    /** Forgets the last row. */
    Fields clear() {
        java.util.Arrays.fill(values, null);
        return this;
    }

    void put(final Column c, final Object v) {
        values[c.ordinal()] = v instanceof String s ? names.apply(Printable.of(s)) : v;
    }

    Object get(final Column c) {
        return values[c.ordinal()];
    }

    String text(final Column c) {
        return (String) values[c.ordinal()];
    }

    /** The measurement these values make, in {@code run}. */
    Result result(final Run run) {
        final String collective = text(Column.COLLECTIVE);
        if (collective == null || collective.isBlank()) {
            throw Checks.bad("collective", String.valueOf(collective), "a collective's name is needed");
        }
        final Object size = get(Column.SIZE_BYTES);
        if (size == null) {
            throw new IllegalArgumentException("size_bytes is empty");
        }
        final String skipped = text(Column.SKIPPED);
        if (skipped == null && get(Column.TIME_US) == null) {
            throw new IllegalArgumentException("time_us is empty in a measured row");
        }
        final Object root = get(Column.ROOT);
        final Object wrong = get(Column.WRONG);
        return Checks.measurement(new Result(run, collective, text(Column.DTYPE), text(Column.OP),
            root == null ? -1 : (int) Math.min((Long) root, Column.MAX_WORLD + 1), (Long) size,
            whole(Column.COUNT, 0), Boolean.TRUE.equals(get(Column.IN_PLACE)), number(Column.TIME_US),
            number(Column.MIN_US), number(Column.P50_US), number(Column.P99_US), number(Column.CV_PCT),
            number(Column.ALGBW_GBPS), number(Column.BUSBW_GBPS), wrong == null ? -1 : (Long) wrong, skipped,
            obtained()));
    }

    /**
     * How the row was obtained, where the file says (a cctk file with the repeats column); else
     * {@link Result.Obtained#UNKNOWN}.
     */
    private Result.Obtained obtained() {
        final long repeats = whole(Column.REPEATS, 0);
        if (repeats <= 0) {
            return Result.Obtained.UNKNOWN;
        }
        return new Result.Obtained((int) Math.min(repeats, Integer.MAX_VALUE), (int) Math.min(Integer.MAX_VALUE,
            whole(Column.ITERS, 0)), (int) Math.min(Integer.MAX_VALUE,
            Math.max(repeats, whole(Column.ATTEMPTS, repeats))), number(Column.SPREAD_PCT),
            number(Column.REPEAT_MIN_US), number(Column.REPEAT_MAX_US), number(Column.FIRST_TIME_US),
            text(Column.RETIMED), text(Column.TIME_ACROSS_RANKS), number(Column.CROSSCORE_US));
    }

    private long whole(final Column c, final long absent) {
        final Object v = get(c);
        return v == null ? absent : (Long) v;
    }

    private double number(final Column c) {
        final Object v = get(c);
        return v == null ? Double.NaN : (Double) v;
    }
}
