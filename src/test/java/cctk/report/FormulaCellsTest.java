package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.AdversarialTally;
import cctk.results.Column;
import cctk.results.Csvs;
import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Formula payloads (OWASP "CSV Injection": cells led by =, +, -, @, tab or CR) in every text field of every result
 * format, through {@code cctk report} in-process: an unknown element type or operator is refused (exit 2, the file,
 * the row and the value named); a collective, cluster, job id or host is kept as data: no cell of combined.csv
 * starts with a formula character unless quoted behind a single quote, combined.csv read back gives the same
 * file, and the Markdown tables stay inert (one cell per column, no link, code, emphasis or HTML).
 */
@Timeout(600)
class FormulaCellsTest {

    private static final AdversarialTally TALLY = new AdversarialTally("formula cells");
    static final List<String> PAYLOADS = List.of("=cmd|' /C calc'!A0", "+HYPERLINK(\"http://x.example/?a=1\",\"go\")",
        "@SUM(1)", "-2+3+cmd", "\t=1+1", "\r=1+1", "\uFF1D1+1", "'=already quoted");
    private static final String LEAD = "=+-@\t\r\uFF1D";

    @TempDir
    static Path tmp;

    @AfterAll
    static void tally() {
        TALLY.report();
        assertThat(TALLY.failures()).isEmpty();
        assertThat(TALLY.inputs()).isGreaterThanOrEqualTo(PAYLOADS.size() * 12);
    }

    /** A hostile result file: its name, and its text for one payload. */
    private record Format(String file, java.util.function.UnaryOperator<String> text, boolean refused) {
    }

    @TestFactory
    Stream<DynamicTest> everyPayloadInEveryField() {
        final List<DynamicTest> tests = new ArrayList<>();
        final List<String[]> names = new ArrayList<>();
        final List<Format> formats = new ArrayList<>();
        add(names, formats, "csv collective", new Format("profile_tcp_world2_1.csv", p -> runCsv(p, "float32", "sum"),
            false));
        add(names, formats, "csv dtype", new Format("profile_tcp_world2_1.csv", p -> runCsv("all_reduce", p, "sum"),
            true));
        add(names, formats, "csv op", new Format("profile_tcp_world2_1.csv", p -> runCsv("all_reduce", "float32", p),
            true));
        for (final Column c : List.of(Column.CLUSTER, Column.JOB_ID, Column.HOSTS)) {
            add(names, formats, "combined csv " + c.header(), new Format("combined.csv", p -> combined(c, p), false));
        }
        add(names, formats, "json collective", new Format("profile_tcp_world2_1.json", p -> json(p, "float32", "sum",
            "c", "1", "h"), false));
        add(names, formats, "json dtype", new Format("profile_tcp_world2_1.json", p -> json("all_reduce", p, "sum",
            "c", "1", "h"), true));
        add(names, formats, "json op", new Format("profile_tcp_world2_1.json", p -> json("all_reduce", "float32", p,
            "c", "1", "h"), true));
        add(names, formats, "json cluster", new Format("profile_tcp_world2_1.json", p -> json("all_reduce", "float32",
            "sum", p, "1", "h"), false));
        add(names, formats, "json job_id", new Format("profile_tcp_world2_1.json", p -> json("all_reduce", "float32",
            "sum", "c", p, "h"), false));
        add(names, formats, "json host", new Format("profile_tcp_world2_1.json", p -> json("all_reduce", "float32",
            "sum", "c", "1", p), false));
        add(names, formats, "nccl-tests dtype", new Format("a.log", p -> ncclLog(word(p), "sum", "node1"), true));
        add(names, formats, "nccl-tests op", new Format("a.log", p -> ncclLog("float", word(p), "node1"), true));
        add(names, formats, "nccl-tests host", new Format("a.log", p -> ncclLog("float", "sum", word(p)), false));
        for (int f = 0; f < formats.size(); f++) {
            for (int i = 0; i < PAYLOADS.size(); i++) {
                final Format format = formats.get(f);
                final String payload = PAYLOADS.get(i);
                final String name = names.get(f)[0] + " = " + payload.replaceAll("\\p{Cc}", "?");
                final Path root = tmp.resolve("f" + f + "p" + i);
                tests.add(DynamicTest.dynamicTest(name, () -> run(name, format, payload, root)));
            }
        }
        return tests.stream();
    }

    private static void add(final List<String[]> names, final List<Format> formats, final String name,
                            final Format f) {
        names.add(new String[] {name});
        formats.add(f);
    }

    private static void run(final String name, final Format f, final String payload, final Path root)
        throws IOException {
        final Path in = Files.createDirectories(root.resolve("in"));
        Files.writeString(in.resolve(f.file()), f.text().apply(payload), StandardCharsets.UTF_8);
        final Path out = root.resolve("out");
        final Hostile.Outcome o = Hostile.cli("report", in.toString(), "-o", out.toString());
        if (o.stackTrace()) {
            TALLY.record(name, AdversarialTally.Outcome.STACK_TRACE);
            throw new AssertionError(name + ": stack trace: " + o);
        }
        // a refused value: exit 2, the file and the row named; a kept one: exit 0
        final boolean refused = f.refused();
        if (o.code() != (refused ? 2 : 0)) {
            TALLY.record(name, AdversarialTally.Outcome.WRONG_EXIT_CODE);
            throw new AssertionError(name + ": exit " + o.code() + ", expected " + (refused ? 2 : 0) + ": " + o);
        }
        if (refused) {
            assertThat(o.err()).as(name).contains(f.file()).containsPattern(":\\d+: row |rows\\[\\d+]|results\\[");
            assertThat(o.err()).as(name).containsAnyOf("not an element type", "not an operator");
            assertThat(o.err()).as(name).contains(shown(f.file().endsWith(".log") ? word(payload) : payload)
                .substring(0, 4));
        }
        inert(name, out);
        if (!refused) {
            roundTrip(name, out, root.resolve("again"));
        }
        TALLY.record(name, refused ? AdversarialTally.Outcome.CLEAR_ERROR : AdversarialTally.Outcome.HANDLED);
    }

    /** combined.csv holds no formula-led cell, and the Markdown tables are inert. */
    static void inert(final String name, final Path out) throws IOException {
        final Path csv = out.resolve("combined.csv");
        assertThat(csv).as(name).exists();
        try (CsvReader<CsvRecord> r = CsvReader.builder().ofCsvRecord(csv)) {
            for (final CsvRecord rec : r) {
                for (final String cell : rec.getFields()) {
                    assertThat(cell.isEmpty() || LEAD.indexOf(cell.charAt(0)) < 0
                        || cell.matches("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?")).as("%s: cell %s", name, cell).isTrue();
                }
            }
        }
        for (final String line : Files.readAllLines(csv)) {
            // a neutralised cell is quoted, its quote inside: ,"'=...
            assertThat(line).as(name).doesNotContainPattern("(^|,)'[=+\\-@]");
        }
        for (final String md : List.of("summary_by_config.md", "full_results.md")) {
            int bars = 0;
            for (final String line : Files.readAllLines(out.resolve(md))) {
                if (line.startsWith("## ")) {
                    bars = 0;
                } else if (line.startsWith("| ---")) {
                    bars = (int) line.chars().filter(ch -> ch == '|').count();
                } else if (line.startsWith("|") && bars > 0) {
                    inertRow(name + " " + md, line, bars);
                }
            }
        }
    }

    /**
     * A Markdown table row whose cells are inert: as many cells as the rule line has columns (no cell ends early),
     * and outside backslash escapes and entities no character that makes HTML, code, emphasis, a link or an autolink.
     */
    static void inertRow(final String name, final String line, final int expectedBars) {
        final StringBuilder plain = new StringBuilder();
        int bars = 0;
        for (int i = 0; i < line.length(); i++) {
            final char ch = line.charAt(i);
            if (ch == '\\') {
                i++;
            } else if (ch == '|') {
                bars++;
                plain.append(' ');
            } else if (ch == '&') {
                final int end = line.indexOf(';', i);
                assertThat(end > i && line.substring(i, end + 1).matches("&(amp|lt|gt|#\\d+);")).as("%s: %s", name,
                    line).isTrue();
                i = end;
            } else {
                plain.append(ch);
            }
        }
        assertThat(bars).as("%s: cells of %s", name, line).isEqualTo(expectedBars);
        final String p = plain.toString();
        assertThat(p).as("%s: %s", name, line).doesNotContain("<", ">", "`", "*", "[", "]", "~", "@", "://")
            .doesNotContainPattern("(?i)www\\.").doesNotContainPattern("(^|[^\\p{L}\\p{N}])_|_($|[^\\p{L}\\p{N}])");
    }

    /** A report of the report's combined.csv writes the same combined.csv: each cell read back as written. */
    private static void roundTrip(final String name, final Path out, final Path again) throws IOException {
        final Hostile.Outcome o = Hostile.cli("report", out.resolve("combined.csv").toString(), "-o", again.toString());
        assertThat(o.code()).as("%s: %s", name, o).isZero();
        assertThat(Files.readString(again.resolve("combined.csv"))).as(name)
            .isEqualTo(Files.readString(out.resolve("combined.csv")));
    }

    private static String shown(final String s) {
        return s.replaceAll("\\p{Cc}", "?");
    }

    /** The payload as one whitespace-free word, as a token of nccl-tests' table. */
    private static String word(final String p) {
        return p.strip().split("\\s+")[0];
    }

    private static String runCsv(final String coll, final String dtype, final String op) {
        final String good = Hostile.row("tcp", "2", "all_reduce", 1024, 6);
        final String bad = Hostile.row("tcp", "2", coll, 4096, 9).replaceFirst(",float32,sum,", ","
            + Csvs.quote(dtype) + "," + Csvs.quote(op) + ",");
        return Csvs.HEADER_BEFORE_REPEATS + "\n" + good + "\n" + bad + "\n";
    }

    private static String combined(final Column c, final String payload) {
        final StringBuilder sb = new StringBuilder("source,cluster,job_id,start,hosts,complete,"
            + Csvs.HEADER_BEFORE_REPEATS + "\n");
        for (final long size : new long[] {1024, 4096}) {
            sb.append("run.csv,").append(c == Column.CLUSTER ? Csvs.quote(payload) : "c").append(',')
                .append(c == Column.JOB_ID ? Csvs.quote(payload) : "7").append(",2026-01-02T03:04:05,")
                .append(c == Column.HOSTS ? Csvs.quote(payload) : "h").append(",true,")
                .append(Hostile.row("tcp", "2", "all_reduce", size, 5 + size / 1e3)).append('\n');
        }
        return sb.toString();
    }

    private static String json(final String coll, final String dtype, final String op, final String cluster,
                               final String job, final String host) {
        final String row = "{\"collective\": %s, \"dtype\": %s, \"op\": %s, "
            + Hostile.fields("%d", "5").replace("\"count\": 256", "\"count\": 16") + "}";
        return "{\"backend\": \"tcp\", \"world_size\": 2, \"job_id\": " + quoted(job) + ", \"args\": {\"cluster\": "
            + quoted(cluster) + "}, \"ranks\": [{\"rank\": 0, \"host\": " + quoted(host) + "}],"
            + " \"units\": {\"time\": \"us\", \"bandwidth\": \"GB/s (1e9 B/s)\", \"size\": \"bytes\"}, \"rows\": ["
            + String.format(row, "\"all_reduce\"", "\"float32\"", "\"sum\"", 1024) + ", "
            + String.format(row, quoted(coll), quoted(dtype), quoted(op), 4096) + "]}";
    }

    private static String ncclLog(final String type, final String op, final String host) {
        final String row = "%12s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s";
        return String.join("\n", "# Collective test starting: all_reduce_perf",
            "# nThread 1 nGpus 1 minBytes 8 maxBytes 64 step: 2(factor) warmup iters: 1 iters: 20",
            "#  Rank  0 Group  0 Pid   4242 on " + host + " device  0 [0000:07:00] GPU",
            "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw"
                + "   busbw #wrong",
            String.format(row, "1024", "256", "float", "sum", "-1", "5.0", "0.2", "0.2", "0", "5.0", "0.2", "0.2",
                "0"),
            String.format(row, "4096", "1024", type, op, "-1", "6.0", "0.7", "0.7", "0", "6.0", "0.7", "0.7", "0"))
            + "\n";
    }

    /** A JSON string literal of {@code s}: quotes, backslashes and control characters escaped. */
    private static String quoted(final String s) {
        final StringBuilder sb = new StringBuilder("\"");
        for (final char ch : s.toCharArray()) {
            if (ch == '"' || ch == '\\') {
                sb.append('\\').append(ch);
            } else if (ch < 0x20) {
                sb.append(String.format("\\u%04x", (int) ch));
            } else {
                sb.append(ch);
            }
        }
        return sb.append('"').toString();
    }
}
