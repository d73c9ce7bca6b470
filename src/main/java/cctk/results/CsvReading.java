package cctk.results;

import de.siegmar.fastcsv.reader.CsvParseException;
import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import de.siegmar.fastcsv.reader.CsvRecordHandler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

/**
 * Reads cctk's CSV ({@link ResultCsv} writes it) by column name, in any order and case: a row whose cells do not fit
 * is skipped with a problem naming file and line, the other rows are kept; text that cannot be parsed as CSV at all
 * ends the file there, keeping the rows before; a file cut inside a quoted cell loses only its last row. A cell that
 * {@link CsvOut} kept from being a formula ({@code '=x}) is read as the text it was given ({@code =x}).
 * <b>Note:</b> threadsafe (no state).
 */
public final class CsvReading {

    /** The longest cell read, in characters: a cctk cell is a few dozen. */
    static final int MAX_CELL = 1 << 16;
    /** The most columns read. */
    static final int MAX_COLUMNS = 256;
    /** Columns that carry a unit in their name, and the units cctk writes. */
    private static final String UNITS = "time_us, size_bytes, busbw_gbps (microseconds, bytes, GB/s = 1e9 B/s)";
    private static final int MAX_LINE_PROBLEMS = 5;

    private CsvReading() {
    }

    /**
     * The measurements of the CSV in {@code in}; {@code runOf} gives the run for a row's backend and world size
     * when the CSV has no run columns of its own (its sibling JSON's header, or a bare run). Reading stops after
     * {@code room} + 1 rows.
     */
    public static List<Result> read(final Path file, final TextInput in, final BiFunction<String, Integer, Run> runOf,
                             final List<String> problems, final UnaryOperator<String> names, final long room)
        throws IOException {
        final CsvRecordHandler handler = CsvRecordHandler.builder().maxFieldSize(MAX_CELL).maxFields(MAX_COLUMNS)
            .maxRecordSize(MAX_CELL * 4).build();
        try (CsvReader<CsvRecord> csv = CsvReader.builder().allowExtraFields(true).allowMissingFields(true)
            .skipEmptyLines(true).build(handler, in)) {
            return new Reading(file, problems, names).rows(csv.iterator(), in, runOf, room);
        } catch (final UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** One file's reading: its columns and its problems. */
    private static final class Reading {
        private final Path file;
        private final List<String> problems;
        private final Fields fields;
        private final Map<String, Run> runs = new HashMap<>();
        private Column[] columns;
        private int lineProblems;
        private boolean broken;

        Reading(final Path file, final List<String> problems, final UnaryOperator<String> names) {
            this.file = file;
            this.problems = problems;
            this.fields = new Fields(names);
        }

        List<Result> rows(final java.util.Iterator<CsvRecord> it, final TextInput in,
                          final BiFunction<String, Integer, Run> runOf, final long room) {
            final List<Result> out = new ArrayList<>();
            CsvRecord next = next(it);
            if (next == null) {
                if (!broken) {
                    problems.add(file + ": no CSV header line (an empty file); skipped");
                }
                return out;
            }
            if (!header(next.getFields())) {
                return out;
            }
            for (next = next(it); next != null && out.size() <= room; ) {
                final CsvRecord rec = next;
                next = next(it);
                if (next == null && in.quotesOpen()) {
                    lineProblem(rec.getStartingLineNumber(), "cut short inside a quoted cell (an open quote)");
                    break;
                }
                final Result r = row(rec, runOf);
                if (r != null) {
                    out.add(r);
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

        /** The next record, or null at the end or where the text stops being CSV (with a problem). */
        private CsvRecord next(final java.util.Iterator<CsvRecord> it) {
            try {
                return it.hasNext() ? it.next() : null;
            } catch (final CsvParseException e) {
                broken = true;
                problems.add(file + ":" + unreadable(e) + "; the rest of the file is not read");
                return null;
            }
        }

        /** What FastCSV could not read, in cctk's words: where, and why. */
        private static String unreadable(final CsvParseException e) {
            final String why = String.valueOf(e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
            final java.util.regex.Matcher at = java.util.regex.Pattern.compile("line (\\d+)").matcher(
                String.valueOf(e.getMessage()));
            final String line = (at.find() ? at.group(1) : "?") + ": row ";
            if (why.contains("max field size")) {
                return line + "has a cell longer than " + MAX_CELL + " characters (not a cctk result)";
            }
            if (why.contains("maximum limit") && why.contains("fields")) {
                return line + "has more than " + MAX_COLUMNS + " cells (not a cctk result)";
            }
            if (why.contains("record size") || why.contains("maximum record")) {
                return line + "is longer than " + MAX_CELL * 4 + " characters (not a cctk result)";
            }
            return line + "is not CSV: " + cctk.Printable.of(why);
        }

        private Result row(final CsvRecord rec, final BiFunction<String, Integer, Run> runOf) {
            final long line = rec.getStartingLineNumber();
            if (rec.getFieldCount() != columns.length) {
                lineProblem(line, "cut short or malformed (" + rec.getFieldCount() + " of " + columns.length
                    + " cells)");
                return null;
            }
            try {
                fields.clear();
                for (int i = 0; i < columns.length; i++) {
                    if (columns[i] != null) {
                        fields.put(columns[i], columns[i].parse(CsvOut.original(rec.getField(i))));
                    }
                }
                return fields.result(run(runOf));
            } catch (final IllegalArgumentException e) {
                lineProblem(line, e.getMessage());
                return null;
            }
        }

        private Run run(final BiFunction<String, Integer, Run> runOf) {
            final String backend = fields.text(Column.BACKEND);
            if (backend == null) {
                throw new IllegalArgumentException("backend is empty");
            }
            final Object w = fields.get(Column.WORLD_SIZE);
            if (w == null) {
                throw new IllegalArgumentException("world_size is empty");
            }
            final int world = Checks.world(w);
            final String source = fields.text(Column.SOURCE);
            final String key = backend + "/" + world + "/" + source + "/" + fields.text(Column.JOB_ID) + "/"
                + fields.text(Column.START);
            return runs.computeIfAbsent(key, k -> source == null ? runOf.apply(backend, world) : combined(source,
                backend, world));
        }

        private Run combined(final String source, final String backend, final int world) {
            final String hosts = fields.text(Column.HOSTS);
            final boolean complete = !Boolean.FALSE.equals(fields.get(Column.COMPLETE));
            return new Run(source, null, null, fields.text(Column.JOB_ID), fields.text(Column.CLUSTER), backend,
                world, fields.text(Column.START), List.of(), hosts == null ? List.of()
                : Arrays.asList(hosts.split(" ")), Map.of(), Map.of(), List.of(),
                complete ? null : Run.INCOMPLETE, null);
        }

        /** Reads the header; false (with a problem) when it is no cctk CSV's. */
        private boolean header(final List<String> header) {
            columns = new Column[header.size()];
            final List<Column> found = new ArrayList<>();
            for (int i = 0; i < header.size(); i++) {
                columns[i] = Column.named(header.get(i));
                found.add(columns[i]);
            }
            final List<String> missing = Column.REQUIRED.stream().filter(c -> !found.contains(c))
                .map(Column::header).toList();
            if (missing.isEmpty()) {
                return true;
            }
            final List<String> otherUnits = header.stream().map(h -> h.strip().toLowerCase(java.util.Locale.ROOT))
                .filter(c -> c.matches(".*_(ms|s|ns|sec|us|mb|gb|kb|mib|gib|kib|mbps|gbps|gbs|mbs|bytes|b)")
                    && Column.named(c) == null)
                .toList();
            if (!otherUnits.isEmpty()) {
                problems.add(file + ": mixed units: it has " + cctk.Printable.of(String.join(", ", otherUnits))
                    + " where cctk's CSV has " + UNITS + "; skipped. Convert it to cctk's columns, or re-run with"
                    + " cctk.");
            } else {
                problems.add(file + ": not a cctk result CSV: its header lacks " + String.join(", ", missing)
                    + " (cctk writes " + Column.csvHeader(false).substring(0, 40) + "...); skipped.");
            }
            return false;
        }

        private void lineProblem(final long line, final String what) {
            lineProblems++;
            if (lineProblems <= MAX_LINE_PROBLEMS) {
                problems.add(file + ":" + line + ": row " + what + "; skipped, the other rows are kept");
            }
        }
    }
}
