package cctk.results.nccltests;

import cctk.Printable;
import cctk.results.Column;
import cctk.results.Result;
import cctk.results.Run;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The columns of one nccl-tests result table, read from its header line by name, and its rows read through them:
 * {@code size count type [redop] [root]} (releases before 2.13 print per collective only those it takes: broadcast
 * {@code root} where all_reduce has {@code redop}, all_gather neither), then an out-of-place and an in-place group
 * of {@code time algbw busbw #wrong} (or {@code error} in releases before 2.13), each followed by {@code i_min i_max
 * i_p99 i_cv%} when the test ran with per-iteration timing. Releases before the resync with NCCL 2.4 (March 2019)
 * name the columns {@code bytes N type op|root time algbw busbw res} and print times in milliseconds, read as
 * such (the layouts are those of nccl-tests' per-collective sources and {@code src/common.cu} over its history on
 * GitHub); anything after the two groups (a timestamp) is ignored. A group whose time is {@code N/A} (how
 * {@link NcclTestsWriter} prints a layout that was not measured) is no measurement.
 * <b>Note:</b> threadsafe (immutable).
 */
final class NcclTestsTable {

    /** The largest size read: 2^53 bytes, as cctk's own files. */
    private static final long MAX_SIZE = 1L << 53;
    /** A row whose text after the preamble starts with this many spaces lacks its out-of-place group. */
    private static final int BLANK_GROUP = 20;
    /** Microseconds in a millisecond: releases before March 2019 printed times in ms ({@code deltaSec * 1.0E3}). */
    private static final double MS = 1e3;

    private final List<String> columns;
    private final int preamble;
    private final int width;
    private final boolean perIteration;
    private final boolean cpuTime;
    /** Microseconds per unit of the time column: 1000 where the header says {@code bytes N} (milliseconds). */
    private final double timeScale;

    private NcclTestsTable(final List<String> columns, final int preamble, final int width) {
        this.columns = columns;
        this.preamble = preamble;
        this.width = width;
        this.perIteration = columns.subList(preamble, Math.min(columns.size(), preamble + width)).contains("i_min");
        this.cpuTime = columns.get(preamble).equals("cputime");
        this.timeScale = columns.get(0).equals("bytes") ? MS : 1;
    }

    /**
     * True for the header line of a result table: {@code #  size  count  type  [redop]  [root]  time  algbw  busbw
     * ...}, or before nccl-tests' resync with NCCL 2.4 (March 2019) {@code #  bytes  N  type  op|root  time  algbw
     * busbw  res ...}.
     */
    static boolean isHeader(final String line) {
        final List<String> t = tokens(line.substring(1));
        return t.size() >= 7 && (t.get(0).equals("size") && t.get(1).equals("count") || t.get(0).equals("bytes")
            && t.get(1).equals("N")) && t.get(2).equals("type") && (t.contains("time") || t.contains("cputime"))
            && t.contains("busbw");
    }

    /** True for a line that names a table's columns ({@code time ... algbw}) in a layout {@link #isHeader} refuses. */
    static boolean looksLikeHeader(final String line) {
        final List<String> t = tokens(line.substring(1));
        return !isHeader(line) && (t.contains("time") || t.contains("cputime"))
            && (t.contains("algbw") || t.contains("busbw"));
    }

    /** The table of a header line ({@link #isHeader}). */
    static NcclTestsTable of(final String line) {
        final List<String> t = tokens(line.substring(1));
        final int first = t.contains("time") ? t.indexOf("time") : t.indexOf("cputime");
        final int second = indexOf(t, t.get(first), first + 1);
        final int width = second > 0 ? second - first : t.size() - first;
        return new NcclTestsTable(t, first, Math.max(3, width));
    }

    /** True when the table reports CPU time ({@code -C 1}) instead of the time per call. */
    boolean cpuTime() {
        return cpuTime;
    }

    /** The measurements of one row (one or two: out-of-place and in-place), or an error naming the cell. */
    List<Result> results(final String line, final Run run, final String coll, final UnaryOperator<String> names) {
        final List<String> t = tokens(line);
        if (t.size() < preamble + 3) {
            throw new IllegalArgumentException("cut short (" + t.size() + " cells)");
        }
        final long size = NcclTestsText.whole("size", t.get(0), MAX_SIZE);
        final long count = NcclTestsText.whole("count", t.get(1), MAX_SIZE);
        if (size < 0 || count < 0) {
            throw new IllegalArgumentException("size and count must not be negative");
        }
        final String dtype = names.apply(Printable.of(NcclTests.dtype(t.get(2))));
        final int opAt = columns.indexOf("redop") >= 0 ? columns.indexOf("redop") : columns.indexOf("op");
        final String op = opAt >= 0 && opAt < preamble ? NcclTests.op(t.get(opAt)) : null;
        final String opName = op == null ? null : names.apply(Printable.of(op));
        final int rootAt = columns.indexOf("root");
        final int root = rootAt >= 0 && rootAt < preamble ? (int) NcclTestsText.whole("root", t.get(rootAt),
            Column.MAX_WORLD) : -1;
        final List<String> rest = t.subList(preamble, t.size());
        final List<Result> out = new ArrayList<>();
        final boolean both = rest.size() >= 2 * width;
        final boolean inPlaceOnly = !both && blankOutOfPlace(line);
        if (both || !inPlaceOnly) {
            out.add(group(rest.subList(0, Math.min(width, rest.size())), false, run, coll, dtype, opName, root, size,
                count));
        }
        if (both || inPlaceOnly) {
            final List<String> g = both ? rest.subList(width, 2 * width) : rest.subList(0, Math.min(width,
                rest.size()));
            out.add(group(g, true, run, coll, dtype, opName, root, size, count));
        }
        out.removeIf(Objects::isNull);
        if (out.isEmpty()) {
            throw new IllegalArgumentException("has no measured layout (N/A in both)");
        }
        return out;
    }

    /** The measurement of one group, or null when its time is {@code N/A}. */
    private Result group(final List<String> g, final boolean inPlace, final Run run, final String coll,
                         final String dtype, final String op, final int root, final long size, final long count) {
        if (g.size() < 3) {
            throw new IllegalArgumentException("cut short (" + g.size() + " cells in the "
                + (inPlace ? "in-place" : "out-of-place") + " group)");
        }
        if (g.get(0).equals("N/A")) {
            return null;
        }
        final double time = NcclTestsText.decimal("time", g.get(0)) * timeScale;
        if (!(time > 0)) {
            throw new IllegalArgumentException("time " + g.get(0) + " is not above 0");
        }
        final double alg = NcclTestsText.decimal("algbw", g.get(1));
        final double bus = NcclTestsText.decimal("busbw", g.get(2));
        long wrong = -1;
        if (g.size() > 3 && columns.get(preamble + 3).equals("#wrong") && !g.get(3).equals("N/A")) {
            wrong = Math.round(NcclTestsText.decimal("#wrong", g.get(3)));
        }
        double min = Double.NaN;
        double p99 = Double.NaN;
        double cv = Double.NaN;
        if (perIteration && g.size() >= 8) {
            min = NcclTestsText.decimal("i_min", g.get(4));
            p99 = NcclTestsText.decimal("i_p99", g.get(6));
            cv = NcclTestsText.decimal("i_cv%", g.get(7));
        }
        final double[] bw = NcclTests.bandwidths(coll, run.world(), size, time, alg, bus,
            NcclTests.step(g.get(1)), NcclTests.step(g.get(2)));
        return new Result(run, coll, dtype, op, root, size, count, inPlace, time, min, Double.NaN, p99, cv, bw[0],
            bw[1], wrong, null);
    }

    /** True when the text after the preamble starts with a run of spaces where the out-of-place group would be. */
    private boolean blankOutOfPlace(final String line) {
        int i = 0;
        for (int cells = 0; cells < preamble; cells++) {
            while (i < line.length() && line.charAt(i) == ' ') {
                i++;
            }
            while (i < line.length() && line.charAt(i) != ' ') {
                i++;
            }
        }
        int spaces = 0;
        while (i < line.length() && line.charAt(i) == ' ') {
            spaces++;
            i++;
        }
        return spaces >= BLANK_GROUP;
    }

    private static List<String> tokens(final String s) {
        final String t = s.strip();
        return t.isEmpty() ? List.of() : Arrays.asList(t.split("\\s+"));
    }

    private static int indexOf(final List<String> t, final String name, final int from) {
        for (int i = from; i < t.size(); i++) {
            if (t.get(i).equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
