package cctk.analysis;

import cctk.Printable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

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
    private UnaryOperator<String> names;
    private int lineProblems;

    private CsvResults(final Path file, final List<String> problems) {
        this.file = file;
        this.problems = problems;
    }

    /**
     * The measurements of the CSV {@code lines}; {@code runOf} gives the run for a row's backend and world size
     * when the CSV has no run columns of its own (its sibling JSON's header, or a bare run). {@code names} returns
     * one shared copy of each repeated text (collective, type, ...); reading stops after {@code room} + 1 rows.
     */
    static List<Result> read(final Path file, final LineSource lines, final BiFunction<String, Integer, Run> runOf,
                             final List<String> problems, final UnaryOperator<String> names, final long room)
        throws IOException {
        final CsvResults r = new CsvResults(file, problems);
        r.names = names;
        return r.rows(lines, runOf, room);
    }

    private List<Result> rows(final LineSource lines, final BiFunction<String, Integer, Run> runOf, final long room)
        throws IOException {
        final String first = lines.next();
        if (first == null || first == LineSource.TOO_LONG || !header(CsvCells.split(first.strip()))) {
            if (first == null || first == LineSource.TOO_LONG) {
                problems.add(file + ": no CSV header line" + (first == null ? " (an empty file)" : " (line 1 is over "
                    + LineSource.MAX_LINE + " characters)") + "; skipped");
            }
            return List.of();
        }
        final List<Result> out = new ArrayList<>();
        final Map<String, Run> runs = new HashMap<>();
        for (String line = lines.next(); line != null; line = lines.next()) {
            final int n = lines.number();
            if (line == LineSource.TOO_LONG) {
                lineProblem(n, "longer than " + LineSource.MAX_LINE + " characters");
                continue;
            }
            if (line.isBlank()) {
                continue;
            }
            final List<String> cells = CsvCells.split(line);
            if (cells == null || cells.size() != col.size()) {
                lineProblem(n, "cut short or malformed (" + (cells == null ? "an open quote" : cells.size()
                    + " of " + col.size() + " cells") + ")");
                continue;
            }
            try {
                out.add(Checks.measurement(result(cells, runs, runOf)));
            } catch (final IllegalArgumentException e) {
                lineProblem(n, e.getMessage());
            }
            if (out.size() > room) {
                return out;
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
        final int world = (int) whole(c, "world_size", 1, Checks.MAX_WORLD);
        if (backend == null) {
            throw new IllegalArgumentException("backend is empty");
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
            root == null ? -1 : (int) whole(c, "root", 0, Checks.MAX_WORLD), whole(c, "size_bytes", 0, Checks.MAX_SIZE),
            whole(c, "count", 0, Checks.MAX_SIZE), "true".equals(text(c, "in_place")), number(c, "time_us", skipped),
            number(c, "min_us", skipped), number(c, "p50_us", skipped), number(c, "p99_us", skipped),
            number(c, "cv_pct", skipped), number(c, "algbw_gbps", skipped), number(c, "busbw_gbps", skipped),
            wrong == null ? -1 : whole(c, "wrong", 0, Long.MAX_VALUE), skipped);
    }

    /** A cell (safe to print, one shared copy), or null when empty or absent. */
    private String text(final List<String> c, final String name) {
        final Integer i = col.get(name);
        return i == null || c.get(i).isBlank() ? null : names.apply(Printable.of(c.get(i)));
    }

    private long whole(final List<String> c, final String name, final long min, final long max) {
        final String t = text(c, name);
        if (t == null && REQUIRED.contains(name)) {
            throw new IllegalArgumentException(name + " is empty");
        }
        return t == null ? min : Checks.whole(name, t, min, max);
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
        return Checks.number(name, t);
    }

    private void lineProblem(final int line, final String what) {
        lineProblems++;
        if (lineProblems <= MAX_LINE_PROBLEMS) {
            problems.add(file + ":" + line + ": row " + what + "; skipped, the other rows are kept");
        }
    }
}
