package cctk.report;

import cctk.results.CsvOut;
import cctk.results.Result;
import cctk.results.ResultCsv;
import cctk.results.ResultSet;
import java.io.Writer;

/**
 * All runs in one CSV: the run columns (source, cluster, job_id, start, hosts, complete), then cctk's run CSV
 * columns ({@link cctk.results.Column}), so {@code cctk report} and {@code cctk compare} read it back as they read a
 * run's CSV.
 * <b>Note:</b> threadsafe (no state).
 */
final class CombinedCsv {

    private CombinedCsv() {
    }

    /** Writes the header and one line per measurement (the writer is flushed, not closed). */
    static void write(final ResultSet set, final Writer out) {
        final CsvOut csv = ResultCsv.writer(out);
        ResultCsv.header(csv, true);
        for (final Result r : set.results()) {
            ResultCsv.row(csv, r, true);
        }
        try {
            csv.flush();
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
