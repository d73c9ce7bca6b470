package cctk.results;

import java.io.Writer;
import java.util.List;

/**
 * cctk's CSV (RFC 4180 through FastCSV: quoted commas, quotes and line breaks round-trip; text cells that a
 * spreadsheet would take for a formula neutralised by {@link CsvOut}): one row per measurement, the columns of
 * {@link Column}. This class writes; {@link CsvReading} reads back (a class of its own, so a rank that
 * only writes never loads FastCSV's reader).
 * <b>Note:</b> threadsafe (no state); the writers it makes are not.
 */
public final class ResultCsv {

    private ResultCsv() {
    }

    /** A CSV writer over {@code out}: LF line ends, quotes only where a cell needs them ({@link CsvOut}). */
    public static CsvOut writer(final Writer out) {
        return CsvOut.over(out);
    }

    /** Writes the header ({@code combined}: a report's combined CSV, with the run columns in front). */
    public static void header(final CsvOut w, final boolean combined) {
        w.writeRecord(Column.csv(combined).stream().map(Column::header).toList());
    }

    /** Writes one measurement. */
    public static void row(final CsvOut w, final Result r, final boolean combined) {
        final List<Column> cols = Column.csv(combined);
        final String[] cells = new String[cols.size()];
        for (int i = 0; i < cells.length; i++) {
            cells[i] = cols.get(i).cell(r);
        }
        w.writeRecord(cells);
    }
}
