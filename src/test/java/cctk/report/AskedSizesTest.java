package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.cli.Main;
import cctk.results.Line;
import cctk.results.Numbers;
import cctk.results.RankInfo;
import cctk.results.Result;
import cctk.results.ResultFiles;
import cctk.results.Run;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;

/**
 * Sizes read the way they were asked for: a 400 MB all-reduce (written by the product's result writer, reported by
 * {@code cctk report --at 400MB}) says "400 MB" in analysis.txt, summary_by_config.md and the comparison chart's
 * title and file name; element-count sweeps (1M, 4M, 16M float32 elements: 4 MB, 16 MB, 64 MB) get ticks at their
 * own sizes.
 */
@Timeout(120)
class AskedSizesTest {

    @TempDir
    Path tmp;

    /** Result files of one tcp run at W = 2: all_reduce float32 sum at {@code sizes}, as the harness writes them. */
    static void write(final Path dir, final String start, final long... sizes) {
        final List<RankInfo> ranks = List.of(new RankInfo(0, "a", 1, 0, 0, "cpu", "lo"),
            new RankInfo(1, "a", 2, 1, 0, "cpu", "lo"));
        final Run run = new Run(null, "0.1.0", "configs/a.yaml", "42", "local", "tcp", 2, start, ranks,
            Run.hostsOf(ranks), Map.of(), Map.of("iters", 20L), List.of(), null, null);
        final ResultFiles files = ResultFiles.create(dir, run);
        for (final long s : sizes) {
            final double bus = 1 + s / 1e8;
            final double time = s / bus / 1e3;
            files.add(new Line("AllReduce", s, 4, List.of(new Result(run, "all_reduce", "float32", "sum", -1, s,
                s / 4, false, time, time, time, time, 1, bus, bus, 0, null))));
        }
        files.finish(null);
    }

    @Test
    void a400MbAllReduceReads400MbEverywhere() throws IOException {
        final Path results = tmp.resolve("results");
        write(results, "2026-11-24T17:34:02", 4_000_000, 40_000_000, 400_000_000);
        final Path rep = tmp.resolve("rep");
        final StringWriter err = new StringWriter();
        final int code = Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "report",
            results.toString(), "-o", rep.toString(), "--at", "400MB");
        assertThat(err.toString()).isEmpty();
        assertThat(code).isZero();
        // old: "390625 KiB" in every file, comparison_near_390625KiB.png
        assertThat(rep.resolve("plots/comparison_near_400MB.png")).isNotEmptyFile();
        for (final String f : List.of("analysis.txt", "summary_by_config.md", "report.html")) {
            // the text, not the inlined plots' base64 (which may hold any letters)
            final String text = Files.readString(rep.resolve(f)).replaceAll("base64,[A-Za-z0-9+/=]+", "");
            assertThat(text).as(f).contains("400 MB").doesNotContain("390625").doesNotContain("KiB");
        }
        assertThat(Files.readString(rep.resolve("summary_by_config.md"))).contains("4 MB - 400 MB");
        assertThat(Files.readString(rep.resolve("report.html"))).contains("nearest to 400 MB");
    }

    @Test
    void sizesPrintInTheUnitThatLeavesTheSmallerNumber() {
        assertThat(Numbers.size(400_000_000)).isEqualTo("400 MB");
        assertThat(Numbers.size(64_000_000)).isEqualTo("64 MB");
        assertThat(Numbers.size(256_000_000)).isEqualTo("256 MB");
        assertThat(Numbers.size(1 << 20)).isEqualTo("1 MiB");
        assertThat(Numbers.size(1_024_000)).isEqualTo("1000 KiB");
        assertThat(Numbers.size(4_000_000)).isEqualTo("4 MB");
        assertThat(Numbers.size(1000)).isEqualTo("1 KB");
        assertThat(Numbers.size(999)).isEqualTo("999 B");
        // 400 MB rounded to whole elements per rank at W = 3 (old: 381.47 MiB)
        assertThat(Numbers.size(399_999_984)).isEqualTo("400.00 MB");
        assertThat(Numbers.size((4L << 20) - 12)).isEqualTo("4.00 MiB");
        assertThat(Numbers.decimal(400_000_000)).isTrue();
        assertThat(Numbers.decimal(1 << 20)).isFalse();
    }

    @Test
    void anElementCountSweepIsTickedAtItsOwnSizes() {
        final Run r = PlotsTest.run("tcp", 2, "2026-11-24T17:34:02");
        final List<Result> rs = new ArrayList<>();
        for (final long elements : new long[] {1_000_000, 4_000_000, 16_000_000}) {
            rs.add(PlotsTest.at(r, "all_reduce", "float32", "sum", elements * 4, 1 + elements / 1e7, false));
        }
        final XYChart c = (XYChart) PlotsTest.named(Plots.plan(new cctk.results.ResultSet(rs, List.of()),
            64_000_000L), "all_reduce_busbw_vs_size").chart();
        // old: a binary axis, ticks at 4 MiB, 16 MiB, 64 MiB with every point just left of one
        assertThat(ChartModel.xLabels(c)).containsExactly("4 MB", "16 MB", "64 MB");
        assertThat(c.getXAxisTitle()).contains("decimal units");
        assertThat(Axes.sizes(List.of(4_000_000L, 16_000_000L, 64_000_000L))).isEqualTo(new Axes.SizeScale(true, 0,
            2, 4_000_000, 4));
        // runs that recorded their sizes as element counts name the counts beside the sizes
        final Run asked = new Run("/r/profile_tcp_world2_x.json", "0.1", null, "j", "local", "tcp", 2,
            "2026-11-24T17:34:02", List.of(), List.of("vm"), Map.of(), Map.of("sizes", List.of("1000000 elements",
            "4000000 elements", "16000000 elements")), List.of(), "OK", null);
        final List<Result> els = new ArrayList<>();
        for (final long elements : new long[] {1_000_000, 4_000_000, 16_000_000}) {
            els.add(PlotsTest.at(asked, "all_reduce", "float32", "sum", elements * 4, 1 + elements / 1e7, false));
        }
        final XYChart e = (XYChart) PlotsTest.named(Plots.plan(new cctk.results.ResultSet(els, List.of()),
            64_000_000L), "all_reduce_busbw_vs_size").chart();
        assertThat(ChartModel.xLabels(e)).containsExactly("4 MB (1M)", "16 MB (4M)", "64 MB (16M)");
        assertThat(e.getXAxisTitle()).contains("in brackets the float32 elements asked for");
        assertThat(c.getXAxisTitle()).doesNotContain("elements");
        // sizes on the powers of ten or two keep those ticks
        assertThat(Axes.sizes(List.of(1_000_000L, 10_000_000L, 100_000_000L))).isEqualTo(new Axes.SizeScale(true, 6,
            8));
        assertThat(Axes.sizes(List.of(4L << 20, 16L << 20, 64L << 20))).isEqualTo(new Axes.SizeScale(false, 22, 26));
    }
}
