package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.results.Column;
import cctk.results.inputs.ResultReader;
import cctk.results.ResultSet;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;

/** nccl-tests and cctk side by side: one plot, a comparison against an nccl-tests baseline, cctk's tables read back. */
@Timeout(120)
class NcclTestsReportTest {

    @TempDir
    Path dir;

    static Path fixture(final String name) throws URISyntaxException {
        return Path.of(NcclTestsReportTest.class.getResource("/nccl-tests/" + name).toURI());
    }

    /** A cctk run's CSV: all_reduce float32 sum out-of-place and in-place at {@code sizes}, busbw {@code busbw}. */
    private Path cctk(final String name, final String backend, final int world, final double busbw, final double cv,
                      final long... sizes) throws IOException {
        final List<String> lines = new ArrayList<>(List.of(cctk.results.Csvs.HEADER_BEFORE_REPEATS));
        for (final long s : sizes) {
            for (final boolean inPlace : new boolean[] {false, true}) {
                final double alg = busbw / (2.0 * (world - 1) / world);
                final double t = s / alg / 1e3;
                lines.add(String.format(Locale.ROOT, "%s,%d,all_reduce,float32,sum,,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,0,",
                    backend, world, s, s / 4, inPlace, t, t, t, t, cv, alg, busbw));
            }
        }
        Files.createDirectories(dir.resolve(name));
        return Files.write(dir.resolve(name).resolve("profile_" + backend + "_world" + world + "_1.csv"), lines);
    }

    /** A cctk run's CSV of backend nccl: all_reduce float32 sum, time = latency + size / bandwidth. */
    private Path latencyAndBandwidth(final String name, final int world, final double latencyUs, final double gbps,
                                     final long... sizes) throws IOException {
        final List<String> lines = new ArrayList<>(List.of(cctk.results.Csvs.HEADER_BEFORE_REPEATS));
        for (final long s : sizes) {
            for (final boolean inPlace : new boolean[] {false, true}) {
                final double t = latencyUs * (inPlace ? 1.0101 : 1) + s / gbps / 1e3;
                final double alg = s / t / 1e3;
                lines.add(String.format(Locale.ROOT, "nccl,%d,all_reduce,float32,sum,,%d,%d,%s,%s,%s,%s,%s,3,%s,%s,0,",
                    world, s, s / 4, inPlace, t, t, t, t, alg, alg * 2 * (world - 1) / world));
            }
        }
        Files.createDirectories(dir.resolve(name));
        return Files.write(dir.resolve(name).resolve("profile_nccl_world" + world + "_1.csv"), lines);
    }

    @Test
    void ncclTestsAndCctkShareOnePlot() throws Exception {
        final Path ours = cctk("ours", "tcp", 2, 1.5, 3, 1 << 20, 4 << 20, 16 << 20);
        final Path out = dir.resolve("out");
        final Hostile.Outcome r = Hostile.cli("report", fixture("all_reduce_perf.txt").toString(), ours.toString(),
            "-o", out.toString());
        assertThat(r.err()).isEmpty();
        assertThat(r.code()).isZero();
        assertThat(out.resolve("plots/all_reduce_busbw_vs_size.png")).isNotEmptyFile();
        final ResultSet set = ResultReader.read(List.of(fixture("all_reduce_perf.txt"), ours));
        final XYChart c = (XYChart) PlotsTest.named(Plots.plan(set, 100L << 20), "all_reduce_busbw_vs_size").chart();
        assertThat(ChartModel.lines(c)).extracting(ChartModel.Line::name).containsExactly("nccl-tests W=8", "tcp W=2");
        // nccl-tests' 8 B .. 64 B rows print a busbw of 0.00; computed again from their times, they are drawn too
        assertThat(c.getSeriesMap().get("nccl-tests W=8").getXData()[0]).as("log2 of the first size: 8 B").isEqualTo(3.0);
        assertThat(ChartModel.xLabels(c)).last().isIn("256 MiB", "512 MiB", "1 GiB");
        assertThat(Files.readString(out.resolve("analysis.txt"))).contains("all_reduce float32 sum nccl-tests W=8: ");
    }

    @Test
    void aCctkRunIsComparedWithAnNcclTestsBaselineAndItsNoise() throws Exception {
        // the baseline (-J, 4 ranks, 1 .. 64 MiB, busbw ~71 .. 350 GB/s, cv ~2 %); NEW: cctk's nccl backend, 4 ranks
        final Path same = cctk("same", "nccl", 4, 340, 2, 64 << 20);
        final Hostile.Outcome ok = Hostile.cli("compare", fixture("all_reduce_perf.json").toString(), same.toString(),
            "--all");
        assertThat(ok.out()).contains("matched without the backend", "2 compared");
        assertThat(ok.out()).containsPattern("64 MiB .* +0\\.9[0-9]x +±[0-9]+%");
        assertThat(ok.code()).as(ok.out() + ok.err()).isZero();
        final Path slow = cctk("slow", "nccl", 4, 200, 2, 64 << 20);
        final Hostile.Outcome bad = Hostile.cli("compare", fixture("all_reduce_perf.json").toString(),
            slow.toString());
        assertThat(bad.out()).contains("2 regressed");
        assertThat(bad.code()).isEqualTo(1);
        // against an nccl-tests text log without -I 1 the spread of one side stands for both
        final Path log = fixture("all_reduce_perf.txt");
        final Path w8 = cctk("w8", "nccl", 8, 150, 20, 512L << 20);
        final Hostile.Outcome noisy = Hostile.cli("compare", log.toString(), w8.toString());
        assertThat(noisy.out()).contains("2 within noise").doesNotContain("REGRESSED");
        assertThat(noisy.code()).isZero();
    }

    /**
     * Issue 26 item 4: a run compared with its own {@code --nccl-tests} export is unchanged, cell by cell, and the
     * export read back keeps every row's busbw to the precision of its time column, the 8 B .. 64 B rows (printed
     * 0.00) included. Before the bandwidths were computed again from size and time, those rows read back as 0 GB/s
     * and the others to two decimals.
     */
    @Test
    void aRunComparedWithItsOwnExportIsUnchanged() throws Exception {
        final long[] sizes = new long[14];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = 8L << (2 * i);
        }
        final Path ours = latencyAndBandwidth("own", 8, 28.50347, 102.3, sizes);
        final Path out = dir.resolve("own-out");
        assertThat(Hostile.cli("report", ours.toString(), "-o", out.toString(), "--nccl-tests").code()).isZero();
        final Path table = out.resolve("nccl-tests/profile_nccl_world8_1_all_reduce_perf.txt");
        final Hostile.Outcome c = Hostile.cli("compare", ours.toString(), table.toString(), "--all");
        assertThat(c.code()).as(c.out() + c.err()).isZero();
        assertThat(c.out()).contains("28 compared").doesNotContain("IMPROVED", "REGRESSED")
            .doesNotContainPattern("[0-9] +(0\\.99|1\\.01)x");
        final ResultSet a = ResultReader.read(List.of(ours));
        final ResultSet b = ResultReader.read(List.of(table));
        assertThat(b.results()).hasSameSizeAs(a.results());
        for (int i = 0; i < a.results().size(); i++) {
            final cctk.results.Result x = a.results().get(i);
            final cctk.results.Result y = b.results().get(i);
            assertThat(y.sizeBytes()).isEqualTo(x.sizeBytes());
            // the time column keeps 4 to 6 significant digits: 28.50, 5248.08
            assertThat(y.busBw()).as("busbw at %d B", x.sizeBytes()).isCloseTo(x.busBw(),
                org.assertj.core.data.Percentage.withPercentage(0.02));
            assertThat(y.algBw()).isCloseTo(x.algBw(), org.assertj.core.data.Percentage.withPercentage(0.02));
        }
    }

    /**
     * Issue 26 item 7: one file per collective, as each nccl-tests binary prints one table, and every row with the
     * same 13 fields: alltoallv, measured out-of-place only, prints N/A in its in-place cells, its count per peer
     * (size / 4 B / 4 ranks, whole 16 bytes, as nccl-tests' count) and a step its sizes follow. Before: one file held both tests,
     * alltoallv's rows had 9 fields, a count of the whole and {@code step: 0(bytes)}.
     */
    @Test
    void oneTablePerCollectiveEachRowOfThirteenFields() throws Exception {
        final List<String> lines = new ArrayList<>(List.of(cctk.results.Csvs.HEADER_BEFORE_REPEATS));
        // alltoallv's sizes: the busiest rank's bytes after the 16-byte slices, not exactly 1, 2, 4 MiB
        for (final long s : new long[] {1048560, 2097120, 4194288}) {
            lines.add(String.format(Locale.ROOT, "tcp,4,alltoallv,float32,,,%d,%d,false,%s,1,1,1,3,%s,%s,0,", s,
                s / 4, s / 1e3, 1.0, 0.75));
            for (final boolean inPlace : new boolean[] {false, true}) {
                lines.add(String.format(Locale.ROOT, "tcp,4,all_reduce,float32,sum,,%d,%d,%s,%s,1,1,1,3,%s,%s,0,",
                    s + 16, (s + 16) / 4, inPlace, (s + 16) / 1e3, 1.0, 1.5));
            }
        }
        Files.createDirectories(dir.resolve("two"));
        final Path csv = Files.write(dir.resolve("two/profile_tcp_world4_1.csv"), lines);
        final Path out = dir.resolve("two-out");
        assertThat(Hostile.cli("report", csv.toString(), "-o", out.toString(), "--nccl-tests").code()).isZero();
        try (var files = Files.list(out.resolve("nccl-tests"))) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted()).containsExactly(
                "profile_tcp_world4_1_all_reduce_perf.txt", "profile_tcp_world4_1_alltoallv_perf.txt");
        }
        final Path v = out.resolve("nccl-tests/profile_tcp_world4_1_alltoallv_perf.txt");
        final String text = Files.readString(v);
        assertThat(text).containsOnlyOnce("# Collective test starting:").doesNotContain("all_reduce")
            .contains("minBytes 1048560 maxBytes 4194288 step: 2(factor) ");
        final List<String> rows = text.lines().filter(l -> !l.startsWith("#") && !l.isEmpty()).toList();
        assertThat(rows).hasSize(3).allSatisfy(l -> assertThat(l.strip().split(" +")).hasSize(13));
        assertThat(rows.get(0)).isEqualTo("     1048560         65532     float    none      -1  1048.56    1.00    0.75"
            + "       0      N/A     N/A     N/A     N/A");
        final ResultSet back = ResultReader.read(List.of(v));
        assertThat(back.problems()).isEmpty();
        assertThat(back.results()).hasSize(3).noneMatch(cctk.results.Result::inPlace);
    }

    /**
     * Issue 26 item 9: a log in no nccl-tests layout cctk knows is refused naming its file and line, without advice to
     * run cctk (the file was found; its layout is the trouble). Before: "Run 'cctk run SPEC' first".
     */
    @Test
    void aLogInAnUnknownLayoutIsRefusedByFileAndLineWithoutAdviceToRunCctk() throws Exception {
        final Path log = Files.write(dir.resolve("all_reduce_perf.log"), List.of("# nThread 1 nGpus 1 iters: 20",
            "#  Rank  0 Group  0 Pid    101 on         n1 device  0 [0000:07:00] GPU",
            "#      bytes    elements     dtype    time   algbw   busbw   errors",
            "           8           2     float    9.10    0.00    0.00        0"));
        final Hostile.Outcome r = Hostile.cli("report", log.toString(), "-o", dir.resolve("o").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains(log + ":3: a result table whose header", "no results to report")
            .doesNotContain("cctk run");
    }

    @Test
    void cctksTablesInNcclTestsLayoutReadBackAsTheSameMeasurements() throws Exception {
        final Path ours = cctk("ours", "tcp", 2, 1.5, 3, 1 << 20, 4 << 20);
        final Path out = dir.resolve("out");
        assertThat(Hostile.cli("report", ours.toString(), "-o", out.toString(), "--nccl-tests").code()).isZero();
        final Path table = out.resolve("nccl-tests/profile_tcp_world2_1_all_reduce_perf.txt");
        assertThat(Files.readString(table)).startsWith("# Collective test starting: all_reduce_perf\n");
        final ResultSet a = ResultReader.read(List.of(ours));
        final ResultSet b = ResultReader.read(List.of(table));
        assertThat(b.problems()).isEmpty();
        assertThat(b.runs()).singleElement().satisfies(r -> assertThat(r.shortName()).isEqualTo("tcp W=2"));
        assertThat(b.results()).hasSameSizeAs(a.results());
        final Comparison c = Comparison.of(a, b, 0.01, 0);
        assertThat(c.changes()).hasSize(4).allSatisfy(ch -> assertThat(ch.ratio()).isCloseTo(1.0,
            org.assertj.core.data.Offset.offset(0.01)));
        // a report into its input directory never reads its own tables back
        for (int i = 0; i < 2; i++) {
            final Hostile.Outcome again = Hostile.cli("report", ours.getParent().toString(), "-o",
                ours.getParent().toString(), "--nccl-tests");
            assertThat(again.code()).as(again.out() + again.err()).isZero();
            assertThat(again.out()).contains("report of 1 run in");
        }
    }
}
