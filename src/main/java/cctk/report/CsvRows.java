package cctk.report;

import java.util.ArrayList;
import java.util.List;

/** The CSV form of rows: a header line, then one line per measurement. */
public final class CsvRows {

    public static final String HEADER = "backend,world_size,collective,dtype,op,root,size_bytes,count,in_place,"
        + "time_us,min_us,p50_us,p99_us,cv_pct,algbw_gbps,busbw_gbps,wrong,skipped";

    private CsvRows() {
    }

    static List<String> lines(final String backend, final int world, final Row r) {
        final List<String> lines = new ArrayList<>();
        for (final Measurement m : r.measurements()) {
            final String[] cells = {
                backend, Integer.toString(world), r.collective(), nz(r.dtype()), nz(r.op()),
                r.root() < 0 ? "" : Integer.toString(r.root()), Long.toString(r.sizeBytes()),
                Long.toString(r.count()), Boolean.toString(m.inPlace()),
                Numbers.plain(m.timeUs()), Numbers.plain(m.minUs()), Numbers.plain(m.p50Us()),
                Numbers.plain(m.p99Us()), Numbers.plain(m.cvPct()), Numbers.plain(m.algBw()),
                Numbers.plain(m.busBw()), m.wrong() < 0 ? "" : Long.toString(m.wrong()), nz(m.skipped()),
            };
            final StringBuilder sb = new StringBuilder();
            for (int i = 0; i < cells.length; i++) {
                if (i > 0) {
                    sb.append(',');
                }
                sb.append(quote(cells[i]));
            }
            lines.add(sb.toString());
        }
        return lines;
    }

    private static String nz(final String s) {
        return s == null ? "" : s;
    }

    /** RFC 4180: quote a cell holding a comma, quote or line break, doubling inner quotes. */
    public static String quote(final String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
