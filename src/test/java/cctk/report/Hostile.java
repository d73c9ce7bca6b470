package cctk.report;

import cctk.cli.Main;
import cctk.results.Column;
import cctk.results.Csvs;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/** Helpers for hostile-input tests: result files with chosen cells, the CLI in-process, files under a tree. */
final class Hostile {

    private Hostile() {
    }

    /** What one in-process CLI call led to. */
    record Outcome(int code, String out, String err) {

        boolean stackTrace() {
            return code == 4 || err.contains("\tat ") || err.contains("Exception") || out.contains("\tat ");
        }
    }

    static Outcome cli(final String... args) {
        final StringWriter o = new StringWriter();
        final StringWriter e = new StringWriter();
        final int code = Main.run(new PrintWriter(o), new PrintWriter(e), args);
        return new Outcome(code, o.toString(), e.toString());
    }

    /** A CSV row of cctk's columns with a chosen collective, size and time; busbw follows. */
    static String row(final String backend, final String world, final String coll, final long size,
                      final double timeUs) {
        final double alg = timeUs > 0 ? size / timeUs / 1e3 : 1;
        return String.format(Locale.ROOT, "%s,%s,%s,float32,sum,,%d,%d,false,%s,%s,%s,%s,1,%s,%s,0,",
            Csvs.quote(backend), world, Csvs.quote(coll), size, size / 4, timeUs, timeUs, timeUs, timeUs,
            alg, alg);
    }

    /** A run CSV with one all_reduce-like series of {@code n} sizes 1 KiB, 4 KiB, ... */
    static List<String> series(final String backend, final String coll, final int n) {
        final List<String> lines = new ArrayList<>();
        lines.add(cctk.results.Csvs.HEADER_BEFORE_REPEATS);
        for (int i = 0; i < n; i++) {
            final long size = 1L << (10 + 2 * i);
            lines.add(row(backend, "2", coll, size, 5 + size / 1e3));
        }
        return lines;
    }

    static Path csv(final Path dir, final String name, final List<String> lines) throws IOException {
        Files.createDirectories(dir);
        return Files.write(dir.resolve(name), lines);
    }

    /** A cctk result JSON whose single row carries {@code rowFields} (raw JSON members). */
    static String json(final String header, final String rowFields) {
        return "{\"backend\": \"tcp\", \"world_size\": 2, " + header
            + "\"units\": {\"time\": \"us\", \"bandwidth\": \"GB/s (1e9 B/s)\", \"size\": \"bytes\"},"
            + " \"rows\": [{\"collective\": \"all_reduce\", \"dtype\": \"float32\", \"op\": \"sum\", "
            + rowFields + "}]}";
    }

    /** The usual row members after collective, dtype and op. */
    static String fields(final String size, final String time) {
        return "\"size_bytes\": " + size + ", \"count\": 256, \"in_place\": false, \"time_us\": " + time
            + ", \"min_us\": 1, \"p50_us\": 1, \"p99_us\": 1, \"cv_pct\": 1, \"algbw_gbps\": 1, \"busbw_gbps\": 1,"
            + " \"wrong\": 0, \"skipped\": null";
    }

    /** Every regular file under {@code root}. */
    static List<Path> files(final Path root) throws IOException {
        if (!Files.exists(root)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).toList();
        }
    }
}
