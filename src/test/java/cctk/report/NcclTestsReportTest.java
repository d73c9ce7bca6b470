package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.results.Column;
import cctk.results.ResultReader;
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
        // nccl-tests' 8 B .. 64 B rows have a busbw of 0.00, which a log axis cannot show
        assertThat(ChartModel.xLabels(c)).first().isIn("128 B", "256 B", "512 B");
        assertThat(ChartModel.xLabels(c)).last().isIn("256 MiB", "512 MiB");
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

    @Test
    void cctksTablesInNcclTestsLayoutReadBackAsTheSameMeasurements() throws Exception {
        final Path ours = cctk("ours", "tcp", 2, 1.5, 3, 1 << 20, 4 << 20);
        final Path out = dir.resolve("out");
        assertThat(Hostile.cli("report", ours.toString(), "-o", out.toString(), "--nccl-tests").code()).isZero();
        final Path table = out.resolve("nccl-tests/profile_tcp_world2_1.txt");
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
