package cctk.analysis.render;

import cctk.analysis.Result;
import cctk.analysis.ResultSet;
import cctk.analysis.Run;
import cctk.report.CsvRows;
import cctk.report.Numbers;
import java.io.IOException;
import java.io.Writer;
import java.util.Objects;

/**
 * All runs in one CSV: the run columns (source, cluster, job_id, start, hosts, complete), then cctk's run CSV
 * columns, so {@code cctk report} and {@code cctk compare} read it back as they read a run's CSV.
 */
public final class CombinedCsv {

    /** The header line. */
    public static final String HEADER = "source,cluster,job_id,start,hosts,complete," + CsvRows.HEADER;

    private CombinedCsv() {
    }

    /** Writes the header and one line per measurement. */
    static void write(final ResultSet set, final Writer out) throws IOException {
        out.write(HEADER);
        out.write('\n');
        for (final Result r : set.results()) {
            final Run run = r.run();
            final String[] cells = {
                run.source(), nz(run.cluster()), nz(run.jobId()), nz(run.start()), String.join(" ", run.hosts()),
                Boolean.toString(run.complete()), run.backend(), Integer.toString(run.world()), r.collective(),
                nz(r.dtype()), nz(r.op()), r.root() < 0 ? "" : Integer.toString(r.root()),
                Long.toString(r.sizeBytes()), Long.toString(r.count()), Boolean.toString(r.inPlace()),
                Numbers.plain(r.timeUs()), Numbers.plain(r.minUs()), Numbers.plain(r.p50Us()),
                Numbers.plain(r.p99Us()), Numbers.plain(r.cvPct()), Numbers.plain(r.algBw()),
                Numbers.plain(r.busBw()), r.wrong() < 0 ? "" : Long.toString(r.wrong()), nz(r.skipped()),
            };
            final StringBuilder sb = new StringBuilder();
            for (int i = 0; i < cells.length; i++) {
                sb.append(i == 0 ? "" : ",").append(CsvRows.quote(cells[i]));
            }
            out.write(sb.append('\n').toString());
        }
    }

    private static String nz(final String s) {
        return Objects.toString(s, "");
    }
}
