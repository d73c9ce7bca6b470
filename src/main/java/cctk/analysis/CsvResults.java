package cctk.analysis;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Reads cctk's CSV (a run's, or a report's combined CSV with its extra run columns) by column name. A row that
 * is cut short or does not parse is skipped with a problem naming file and line; the other rows are kept.
 */
final class CsvResults {

    static final List<String> REQUIRED = List.of("backend", "world_size", "collective", "size_bytes", "time_us",
        "busbw_gbps");
    /** Columns that carry a unit in their name, and the units cctk writes. */
    private static final String UNITS = "time_us, size_bytes, busbw_gbps (microseconds, bytes, GB/s = 1e9 B/s)";
    private static final int MAX_LINE_PROBLEMS = 5;

    private final Path file;
    private final List<String> problems;
    private Map<String, Integer> col;
    private int lineProblems;

    private CsvResults(final Path file, final List<String> problems) {
        this.file = file;
        this.problems = problems;
    }

    /**
     * The measurements of {@code text}; {@code runOf} gives the run for a row's backend and world size when the
     * CSV has no run columns of its own (its sibling JSON's header, or a bare run).
     */
    static List<Result> read(final Path file, final String text, final BiFunction<String, Integer, Run> runOf,
                             final List<String> problems) {
        return new CsvResults(file, problems).rows(text, runOf);
    }

    private List<Result> rows(final String text, final BiFunction<String, Integer, Run> runOf) {
        final String[] lines = text.split("\r?\n", -1);
        final List<String> header = CsvCells.split(lines[0].strip());
        if (!header(header)) {
            return List.of();
        }
        final List<Result> out = new ArrayList<>();
        final Map<String, Run> runs = new HashMap<>();
        final int last = text.endsWith("\n") ? lines.length - 1 : lines.length;
        for (int n = 1; n < last; n++) {
            if (lines[n].isBlank()) {
                continue;
            }
            final List<String> cells = CsvCells.split(lines[n]);
            if (cells == null || cells.size() != col.size()) {
                lineProblem(n + 1, "cut short or malformed (" + (cells == null ? "an open quote" : cells.size()
                    + " of " + col.size() + " cells") + ")");
                continue;
            }
            try {
                out.add(result(cells, runs, runOf));
            } catch (final IllegalArgumentException e) {
                lineProblem(n + 1, e.getMessage());
            }
        }
        if (lineProblems > MAX_LINE_PROBLEMS) {
            problems.add(file + ": " + (lineProblems - MAX_LINE_PROBLEMS) + " more bad rows skipped");
        }
        if (out.isEmpty() && lineProblems == 0) {
            problems.add(file + ": a cctk CSV with no rows (the run measured nothing?)");
        }
        return out;
    }

    private boolean header(final List<String> header) {
        col = new LinkedHashMap<>();
        for (int i = 0; header != null && i < header.size(); i++) {
            col.put(header.get(i).strip().toLowerCase(java.util.Locale.ROOT), i);
        }
        final List<String> missing = REQUIRED.stream().filter(c -> !col.containsKey(c)).toList();
        if (missing.isEmpty()) {
            return true;
        }
        final List<String> otherUnits = col.keySet().stream()
            .filter(c -> c.matches(".*_(ms|s|ns|sec|us|mb|gb|kb|mib|gib|kib|mbps|gbps|gbs|mbs|bytes|b)")
                && !REQUIRED.contains(c) && !c.equals("min_us") && !c.matches("p\\d+_us|algbw_gbps|cv_pct"))
            .toList();
        if (!otherUnits.isEmpty()) {
            problems.add(file + ": mixed units: it has " + String.join(", ", otherUnits) + " where cctk's CSV has "
                + UNITS + "; skipped. Convert it to cctk's columns, or re-run with cctk.");
        } else {
            problems.add(file + ": not a cctk result CSV: its header lacks " + String.join(", ", missing)
                + " (cctk writes " + cctk.report.CsvRows.HEADER.substring(0, 40) + "...); skipped.");
        }
        return false;
    }

    private Result result(final List<String> c, final Map<String, Run> runs,
                          final BiFunction<String, Integer, Run> runOf) {
        final String backend = text(c, "backend");
        final int world = (int) whole(c, "world_size", 1);
        if (backend == null || world < 1) {
            throw new IllegalArgumentException("no backend or world size");
        }
        final String source = text(c, "source");
        final String key = backend + "/" + world + "/" + source + "/" + text(c, "job_id") + "/" + text(c, "start");
        final Run run = runs.computeIfAbsent(key, k -> source == null ? runOf.apply(backend, world)
            : new Run(source, backend, world, text(c, "cluster"), text(c, "job_id"), text(c, "start"),
                text(c, "hosts") == null ? List.of() : Arrays.asList(text(c, "hosts").split(" ")),
                !"false".equals(text(c, "complete")), List.of()));
        final String skipped = text(c, "skipped");
        final String wrong = text(c, "wrong");
        final String root = text(c, "root");
        return new Result(run, text(c, "collective"), text(c, "dtype"), text(c, "op"),
            root == null ? -1 : (int) whole(c, "root", 0), whole(c, "size_bytes", 0), whole(c, "count", 0),
            "true".equals(text(c, "in_place")), number(c, "time_us", skipped), number(c, "min_us", skipped),
            number(c, "p50_us", skipped), number(c, "p99_us", skipped), number(c, "cv_pct", skipped),
            number(c, "algbw_gbps", skipped), number(c, "busbw_gbps", skipped),
            wrong == null ? -1 : whole(c, "wrong", 0), skipped);
    }

    /** A cell, or null when empty or absent. */
    private String text(final List<String> c, final String name) {
        final Integer i = col.get(name);
        return i == null || c.get(i).isEmpty() ? null : c.get(i);
    }

    private long whole(final List<String> c, final String name, final long min) {
        final String t = text(c, name);
        try {
            final long v = t == null ? min : Long.parseLong(t.strip());
            if (v < min) {
                throw new IllegalArgumentException(name + " is " + t + ", below " + min);
            }
            return v;
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException(name + " is '" + t + "', not a whole number");
        }
    }

    /** A number; NaN when empty, which only a skipped measurement may be. */
    private double number(final List<String> c, final String name, final String skipped) {
        final String t = text(c, name);
        if (t == null) {
            if (skipped == null && REQUIRED.contains(name) && !name.equals("busbw_gbps")) {
                throw new IllegalArgumentException(name + " is empty in a measured row");
            }
            return Double.NaN;
        }
        try {
            return Double.parseDouble(t.strip());
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException(name + " is '" + t + "', not a number");
        }
    }

    private void lineProblem(final int line, final String what) {
        lineProblems++;
        if (lineProblems <= MAX_LINE_PROBLEMS) {
            problems.add(file + ":" + line + ": row " + what + "; skipped, the other rows are kept");
        }
    }
}
