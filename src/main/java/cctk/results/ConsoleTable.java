package cctk.results;

import java.util.List;

/**
 * The rows of a run as they are measured, for the console: one line per point in the columns of nccl-tests' table
 * (collective, type, operator, root, size in bytes, count, then time in µs, algbw and busbw in GB/s and #wrong, out of
 * place and in place). A measurement that did not happen shows {@code skipped} (its reason is in the files). Rows
 * are printed as points complete, in the sweep's order: size by size, the collectives of one size together (they
 * are measured interleaved, so that a drift of the machine touches them alike); grouping them per collective, as
 * nccl-tests' one table per binary does, would hold every row back until the sweep ends, so the header says the
 * order instead and {@code cctk report --nccl-tests} writes the per-collective tables.
 * <b>Note:</b> threadsafe (no state).
 */
public final class ConsoleTable {

    private static final String LAYOUT = "%-16s%9s%7s%6s%15s%14s";
    private static final String SIDE = " |%12s%8s%8s%8s%8s%6s";

    private ConsoleTable() {
    }

    /** The two header lines, for {@code run}'s backend and world size. */
    public static List<String> header(final Run run) {
        return List.of("# " + run.backend() + ", " + run.world() + " ranks: time = " + run.timeAcrossRanks() + ","
                + " median of the repeats; spread = (slowest - fastest repeat) / time; loops = timed loops run"
                + " / repeats"
                + " (more: re-timed after a compile or a collection); 1 GB/s = 10^9 B/s; rows come as measured,"
                + " size by size with the collectives of a size together (nccl-tests prints one table per"
                + " collective: cctk report --nccl-tests writes those)",
            "#" + String.format(java.util.Locale.ROOT, LAYOUT, " collective", "type", "redop", "root", "size(B)",
                "count").substring(1)
                + String.format(java.util.Locale.ROOT, SIDE, "time(us)", "algbw", "busbw", "#wrong", "spread", "loops")
                + String.format(java.util.Locale.ROOT, SIDE, "in-place", "algbw", "busbw", "#wrong", "spread",
                    "loops"));
    }

    /** The line of one point. */
    public static String row(final Line line) {
        final Result first = line.results().get(0);
        final StringBuilder sb = new StringBuilder(String.format(java.util.Locale.ROOT, LAYOUT, "  "
                + first.collective(), orDash(first.dtype()), orDash(first.op()),
            first.root() < 0 ? "-1" : Integer.toString(first.root()), Long.toString(first.sizeBytes()),
            Long.toString(first.count())));
        Result outOfPlace = null;
        Result inPlace = null;
        for (final Result r : line.results()) {
            if (r.inPlace()) {
                inPlace = r;
            } else {
                outOfPlace = r;
            }
        }
        side(sb, outOfPlace);
        side(sb, inPlace);
        return sb.toString();
    }

    private static void side(final StringBuilder sb, final Result r) {
        if (r == null) {
            sb.append(String.format(java.util.Locale.ROOT, SIDE, "", "", "", "", "", ""));
        } else if (!r.measured()) {
            sb.append(String.format(java.util.Locale.ROOT, SIDE, "skipped", "", "", "", "", ""));
        } else {
            final Result.Obtained how = r.how();
            sb.append(String.format(java.util.Locale.ROOT, SIDE, Numbers.fit(r.timeUs(), 12).trim(),
                Numbers.fit(r.algBw(), 8).trim(), Numbers.fit(r.busBw(), 8).trim(),
                r.wrong() < 0 ? "N/A" : Long.toString(r.wrong()), Double.isFinite(how.spreadPct())
                ? Numbers.fixed(how.spreadPct(), 1) + "%" : "-", how.known() ? how.attempts() + "/" + how.repeats()
                : "-"));
        }
    }

    private static String orDash(final String s) {
        return s == null ? "-" : s;
    }
}
