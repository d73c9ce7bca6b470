package cctk.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Hand-made cctk CSVs with chosen busbw per size, for figures that tests can check by hand. */
public final class Csvs {

    /**
     * The header of a run's CSV as cctk wrote it before rows said how they were obtained (repeats, attempts, spread):
     * such files are still read, their rows with {@link Result.Obtained#UNKNOWN}.
     */
    public static final String HEADER_BEFORE_REPEATS = "backend,world_size,collective,dtype,op,root,size_bytes,count,"
        + "in_place,time_us,min_us,p50_us,p99_us,cv_pct,algbw_gbps,busbw_gbps,wrong,skipped";

    private Csvs() {
    }

    /** One all_reduce float32 sum run: {@code busbw[i]} at 2^(10 + 2i) bytes; time follows from size/busbw. */
    public static Path allReduce(final Path dir, final String name, final String backend, final int world,
                          final double... busbw) throws IOException {
        final List<String> lines = new ArrayList<>();
        lines.add(HEADER_BEFORE_REPEATS);
        for (int i = 0; i < busbw.length; i++) {
            final long size = 1L << (10 + 2 * i);
            final double factor = 2.0 * (world - 1) / world;
            final double alg = busbw[i] / factor;
            final double time = size / alg / 1e3;
            lines.add(String.format(Locale.ROOT, "%s,%d,all_reduce,float32,sum,,%d,%d,false,%s,%s,%s,%s,%s,%s,%s,0,",
                backend, world, size, size / 4, time, time, time, time, i == 1 ? "45" : "1", alg, busbw[i]));
        }
        Files.createDirectories(dir);
        return Files.write(dir.resolve(name), lines);
    }

    /** A CSV cell as RFC 4180 quotes it (a comma, quote or line break quoted, inner quotes doubled). */
    public static String quote(final String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
