package cctk.results;

import java.util.List;

/**
 * The rows of a run as they are measured, for the console: one line per point in the columns of nccl-tests' table
 * (collective, type, operator, root, size in bytes, count, then time in µs, algbw and busbw in GB/s and #wrong, out of
 * place and in place). A measurement that did not happen shows {@code skipped} (its reason is in the files). Rows
 * are printed as points complete, in the sweep's order: size by size, the collectives of one size together (they
 * are measured interleaved, so that a drift of the machine touches them alike); grouping them per collective, as
 * nccl-tests' one table per binary does, would hold every row back until the sweep ends, so the header says the
 * order, and when the sweep ends {@link #byCollective} prints them again one table per collective
 * ({@code cctk report --nccl-tests} writes those tables as nccl-tests' files).
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
                + " size by size with the collectives of a size together, and again one table per collective"
                + " at the end, as nccl-tests prints them",
            "#" + String.format(java.util.Locale.ROOT, LAYOUT, " collective", "type", "redop", "root", "size(B)",
                "count").substring(1)
                + String.format(java.util.Locale.ROOT, SIDE, "time(us)", "algbw", "busbw", "#wrong", "spread", "loops")
                + String.format(java.util.Locale.ROOT, SIDE, "in-place", "algbw", "busbw", "#wrong", "spread",
                    "loops"));
    }

    /**
     * After a sweep of two or more collectives, the same rows again as nccl-tests prints them, one table per
     * collective (a {@code # <collective>} line, then its rows by type, operator and size, in the order measured),
     * under one line that says why they are printed twice; nothing for a sweep of one collective, whose rows were
     * already one table. The rows streamed during the sweep stay as they were, in the order of measurement.
     */
    public static List<String> byCollective(final List<Result> results) {
        final java.util.Map<String, java.util.Map<String, List<Result>>> byColl = new java.util.LinkedHashMap<>();
        for (final Result r : results) {
            byColl.computeIfAbsent(r.collective(), k -> new java.util.LinkedHashMap<>())
                .computeIfAbsent(r.dtype() + " " + r.op() + " " + r.root() + " " + r.sizeBytes(),
                    k -> new java.util.ArrayList<>()).add(r);
        }
        final List<String> out = new java.util.ArrayList<>();
        if (byColl.size() < 2) {
            return out;
        }
        out.add("# the rows above by collective, one table each as nccl-tests prints them:");
        byColl.forEach((coll, points) -> {
            out.add("# " + coll);
            points.values().forEach(ms -> out.add(row(new Line(coll, ms.get(0).sizeBytes(), 1, ms))));
        });
        return out;
    }

    /**
     * The lines that end a sweep on the rows' stream: {@link #byCollective} of {@code results} (none when the rows
     * were not printed), then the JIT's summary.
     */
    public static List<String> end(final List<Result> results, final Object jitSummary) {
        final List<String> out = new java.util.ArrayList<>(byCollective(results));
        out.add("cctk: JIT during the sweep: " + jitSummary);
        return out;
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
                r.wrong() < 0 ? "N/A" : Long.toString(r.wrong()), spread(how.spreadPct()),
                how.known() ? how.attempts() + "/" + how.repeats() : "-"));
        }
    }

    /**
     * A spread in the 7 characters its column leaves after the space that separates it from {@code #wrong}: one
     * decimal below 100 %, none up to 99999 %, then {@code >99999%} (before: {@code 11259.5%} ran into the
     * {@code #wrong} before it and read {@code 011259.5%}).
     */
    static String spread(final double pct) {
        if (!Double.isFinite(pct)) {
            return "-";
        }
        if (pct < 100) {
            return Numbers.fixed(pct, 1) + "%";
        }
        return pct < 99999.5 ? Numbers.fixed(pct, 0) + "%" : ">99999%";
    }

    private static String orDash(final String s) {
        return s == null ? "-" : s;
    }
}
