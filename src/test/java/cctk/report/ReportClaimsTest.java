package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What {@code cctk report} claims in analysis.txt rests on the figure it names, the one its plots show. */
@Timeout(120)
class ReportClaimsTest {

    @TempDir
    Path dir;

    @Test
    void aCrossoverIsByBusbwAsThePlotAndTheFastestAre() throws Exception {
        // W=4's busbw is above W=2's at every size; by time W=4 is quicker at the small sizes (busbw 2x, all-reduce
        // factor 1.5) and slower at the large ones (busbw 1.2x): the old analysis said "tcp W=2 overtakes tcp W=4"
        final long[] sizes = ClaimRuns.doubling(1 << 20, 6);
        final double[] w2 = {1, 1, 1, 1, 1, 1};
        final double[] w4 = {2, 2, 2, 1.2, 1.2, 1.2};
        ClaimRuns.write(dir.resolve("in"), ClaimRuns.run("tcp", 2, "2026-11-24T17:34:02", ClaimRuns.args(20, 5, 3)),
            sizes, w2, 2);
        ClaimRuns.write(dir.resolve("in"), ClaimRuns.run("tcp", 4, "2026-11-24T17:35:02", ClaimRuns.args(20, 5, 3)),
            sizes, w4, 2);
        final String text = ClaimRuns.report(dir.resolve("out"), dir.resolve("in"));
        assertThat(text).doesNotContain("overtakes")
            .contains("Crossovers by busbw", "none: at every common size the same one has the higher busbw",
                "all_reduce float32 sum: fastest by busbw is tcp W=4");
        // and where the busbw lines do cross, the crossover names busbw and the size
        final double[] w8 = {0.5, 0.5, 0.5, 3, 3, 3};
        ClaimRuns.write(dir.resolve("in"), ClaimRuns.run("tcp", 8, "2026-11-24T17:36:02", ClaimRuns.args(20, 5, 3)),
            sizes, w8, 2);
        assertThat(ClaimRuns.report(dir.resolve("out"), dir.resolve("in")))
            .contains("all_reduce float32 sum: tcp W=8 overtakes tcp W=4 by busbw at 8 MiB (3 sizes)");
    }


    @Test
    void anNcclTestsTextLogMakesNoClaimAboutSpreadAndItsZeroRowsAreNoted() throws Exception {
        // the text log has no per-iteration columns, and busbw 0.00 at 8 B and 32 B: the old conclusion said "no
        // measurement varies by more than 20 %", and the plots dropped the two sizes without a word
        final Path out = dir.resolve("out");
        final String text = ClaimRuns.report(out, NcclTestsReportTest.fixture("all_reduce_perf.txt"));
        assertThat(text).doesNotContain("no measurement varies").contains("  unknown: no run records its variation",
            "1 run(s) record no variation between iterations or repeats (an nccl-tests text log does not), so their"
                + " noise is unknown: nccl-tests W=8",
            "How much nccl-tests W=8 vary between iterations is unknown: its files do not record it.")
            // the rows printed 0.00 get their busbw from size and time as they are read, so the plots keep them
            .doesNotContain("Left out of the plots");
        assertThat(java.nio.file.Files.readString(out.resolve("report.html"))).doesNotContain("Left out of the plots");
        // a cctk run records its spread: the claim stays
        ClaimRuns.write(dir.resolve("in"), ClaimRuns.run("tcp", 2, "2026-11-24T17:34:02", ClaimRuns.args(20, 5, 3)),
            ClaimRuns.doubling(1 << 20, 3), new double[] {1, 2, 2}, 2);
        assertThat(ClaimRuns.report(dir.resolve("out2"), dir.resolve("in"))).contains(
            "no measurement varies by more than 20.00 % between iterations").doesNotContain("Left out of the plots");
    }

    @Test
    void repeatsOfOneConfigurationAreNotRankedAndRunsThatShareSizesAreRankedOverThem() throws Exception {
        // two runs of one spec (tcp W=2, same settings) over 1 .. 32 MiB and a W=4 run over 64 .. 256 MiB: the old
        // conclusion said "the runs measured no size in common" and, for the two alone, called one of them fastest
        final Path in = dir.resolve("in");
        final long[] small = ClaimRuns.doubling(1 << 20, 6);
        ClaimRuns.write(in, ClaimRuns.run("tcp", 2, "2026-11-24T17:34:02", ClaimRuns.args(20, 5, 3)), small,
            new double[] {1, 2, 3, 3, 3, 3}, 2);
        ClaimRuns.write(in, ClaimRuns.run("tcp", 2, "2026-11-24T17:40:02", ClaimRuns.args(20, 5, 3)), small,
            new double[] {1, 2, 3.1, 3.1, 3.1, 3.1}, 2);
        final String repeats = ClaimRuns.report(dir.resolve("out"), in);
        assertThat(repeats).doesNotContain("fastest by", "overtakes").contains(
            "all_reduce float32 sum: 2 repeats of one configuration (tcp W=2 2026-11-24 17:34, tcp W=2 2026-11-24 17:40), so none is called"
                + " fastest: busbw 3.00 - 3.10 GB/s",
            "no crossovers figured between repeats of one configuration");
        ClaimRuns.write(in, ClaimRuns.run("tcp", 4, "2026-11-24T17:50:02", ClaimRuns.args(20, 5, 3)),
            ClaimRuns.doubling(64 << 20, 3), new double[] {4, 4, 4}, 2);
        assertThat(ClaimRuns.report(dir.resolve("out"), in)).doesNotContain("no size in common", "fastest by").contains(
            "2 repeats of one configuration", "the largest sizes 2 of the runs measured; tcp W=4 measured none of them");
        // another setting (more iterations) is another configuration: ranked, with the repeats as one
        ClaimRuns.write(in, ClaimRuns.run("tcp", 2, "2026-11-24T18:00:02", ClaimRuns.args(200, 5, 3)), small,
            new double[] {1, 2, 5, 5, 5, 5}, 2);
        assertThat(ClaimRuns.report(dir.resolve("out"), in)).contains("all_reduce float32 sum: fastest by busbw is"
            + " tcp W=2 2026-11-24 18:00 at 5.00 GB/s busbw", "; then tcp W=2 3.05 (median of 2 repeats, 3.00 - 3.10).");
    }

    @Test
    void aPlateauIsWhereTheCurveStaysThroughTheLargestSizes() throws Exception {
        // a cache bump to 46 GB/s at 256 KiB, then a fall to 1.4 GB/s: the old conclusion said "saturates from
        // 256 KiB"; a curve flat from the smallest size made it name the smallest size measured
        final Path in = dir.resolve("in");
        ClaimRuns.write(in, ClaimRuns.run("tcp", 8, "2026-11-24T17:34:02", ClaimRuns.args(20, 5, 3)),
            ClaimRuns.doubling(64 << 10, 8), new double[] {1, 10, 46, 20, 5, 1.5, 1.4, 1.4}, 2);
        assertThat(ClaimRuns.report(dir.resolve("out"), in)).doesNotContain("saturates from 256 KiB").contains(
            "saturates from 2 MiB at 1.40 GB/s (the median over 2 MiB - 8 MiB (3 sizes), each within 10 % and its noise"
                + " of the highest, after a peak of 46.00 GB/s at 256 KiB).",
            "busbw falls from 46.00 GB/s to 1.40 GB/s at the largest size");
        final Path flat = dir.resolve("flat");
        ClaimRuns.write(flat, ClaimRuns.run("tcp", 2, "2026-11-24T17:34:02", ClaimRuns.args(20, 5, 3)),
            ClaimRuns.doubling(1 << 10, 4), new double[] {0.5, 0.52, 0.5, 0.51}, 2);
        assertThat(ClaimRuns.report(dir.resolve("out2"), flat)).doesNotContain("saturates from").contains(
            "busbw is flat over every size measured (1 KiB - 8 KiB (4 sizes), each within 10 % and its noise of the"
                + " highest; the median busbw of every size is 0.51 GB/s), so it saturates at or below the smallest"
                + " size measured");
    }

    @Test
    void everyRunsParametersAreInTheAnalysisTheSummaryAndThePage() throws Exception {
        // the old report named no iterations, warm-up, repeats or alltoallv spread anywhere
        final Path in = dir.resolve("in");
        final cctk.results.ResultFiles files = cctk.results.ResultFiles.create(in, ClaimRuns.run("tcp", 2,
            "2026-11-24T17:34:02", ClaimRuns.args(50, 7, 4)));
        for (final long size : ClaimRuns.doubling(1 << 20, 2)) {
            files.add(new cctk.results.Line("AllToAllV", size, 4, java.util.List.of(ClaimRuns.point(files.run(),
                "alltoallv", size - 16, 2, 2))));
        }
        files.finish(null);
        final Path out = dir.resolve("out");
        final String want = "iterations 50, warm-up 7, repeats 4, exactly the iterations per loop, loops re-timed"
            + " after a JIT compile or a collection, alltoallv counts spread 4.0x (no matrix file)";
        assertThat(ClaimRuns.report(out, in, NcclTestsReportTest.fixture("all_reduce_perf.txt")))
            .contains("    measured with: " + want, "    measured with: iterations 20, warm-up 1");
        assertThat(java.nio.file.Files.readString(out.resolve("summary_by_config.md"))).contains(
            "| parameters |", want);
        assertThat(java.nio.file.Files.readString(out.resolve("report.html"))).contains("<th>parameters</th>",
            "<td>" + want + "</td>");
    }

    @Test
    void thePageHasContentsAnchorsPerCollectiveAPrintLayoutAndNoWordAbove() throws Exception {
        // the old page had no contents, no anchors and no layout for print or a narrow screen; its conclusion (at
        // the top) sent the reader to figures "above"; the console said "report of 1 runs"
        final Path in = dir.resolve("in");
        final cctk.results.ResultFiles files = cctk.results.ResultFiles.create(in, ClaimRuns.run("tcp", 2,
            "2026-11-24T17:34:02", ClaimRuns.args(20, 5, 3)));
        for (final long size : ClaimRuns.doubling(1 << 20, 3)) {
            files.add(new cctk.results.Line("AllReduce", size, 4, java.util.List.of(ClaimRuns.point(files.run(),
                "all_reduce", size, 2, 2), ClaimRuns.point(files.run(), "all_gather", size, 1, 2))));
        }
        files.add(new cctk.results.Line("AllReduce", 1 << 20, 8, java.util.List.of(new cctk.results.Result(
            files.run(), "all_reduce", "float64", "sum", -1, 1 << 20, 1 << 17, false, 5, 5, 5, 5, 1, 1, 1, 0, null))));
        files.finish(null);
        final Path out = dir.resolve("out");
        final Hostile.Outcome r = Hostile.cli("report", in.toString(), "-o", out.toString());
        assertThat(r.out()).contains("cctk: report of 1 run in ");
        final String page = java.nio.file.Files.readString(out.resolve("report.html"));
        assertThat(page).contains("<nav id=\"contents\">", "<a href=\"#conclusion\">", "<a href=\"#analysis\">",
            "<a href=\"#coll-all_reduce\">all_reduce</a>", "<a href=\"#coll-all_gather\">all_gather</a>",
            "<figure id=\"coll-all_reduce\">", "<figure id=\"coll-all_gather\">", "<h2 id=\"table-1\">Runs</h2>",
            "<a href=\"#table-1\">Runs</a>", "@media print{", "@media (max-width:700px)");
        final String conclusion = page.substring(page.indexOf("id=\"conclusion\""), page.indexOf("id=\"analysis\""));
        assertThat(conclusion).contains("also measured: float64 sum (their figures are in the analysis")
            .doesNotContain("above");
        assertThat(java.nio.file.Files.readString(out.resolve("analysis.txt"))).startsWith("cctk report: 1 run, ");
    }

    @Test
    void compareHelpSaysWhatItPrintsByDefaultAndWhichSizes() throws Exception {
        // the old help said --all prints "not only the flagged ones" and gave no default for --min-size, though by
        // default a change within noise is printed and a barrier's 0 B is left out
        final String help = Hostile.cli("compare", "--help").out().replaceAll("\\s+", " ");
        assertThat(help).contains("by default only for those that changed by more than the tolerance (REGRESSED,"
            + " IMPROVED or within noise)", "(default: 1B: every size but the 0 B of a barrier; 0B compares barriers"
            + " too)");
        final long[] sizes = ClaimRuns.doubling(1 << 20, 2);
        ClaimRuns.write(dir.resolve("base"), ClaimRuns.run("tcp", 2, "2026-11-24T17:34:02", ClaimRuns.args(20, 5, 3)),
            sizes, new double[] {1, 1}, 2);
        ClaimRuns.write(dir.resolve("new"), ClaimRuns.run("tcp", 2, "2026-11-24T17:44:02", ClaimRuns.args(20, 5, 3)),
            sizes, new double[] {1, 1.15}, 2);
        final Hostile.Outcome r = Hostile.cli("compare", dir.resolve("base").toString(), dir.resolve("new").toString());
        assertThat(r.out().lines().filter(l -> l.startsWith("all_reduce"))).singleElement().asString()
            .contains("2 MiB", "within noise");
    }

    @Test
    void aSkippedRowShowsItsReasonNotZeros() throws Exception {
        // issue 26 saw skipped rows as "0 0" without the reason; at this commit the full results already show it:
        // this pins it
        final Path in = dir.resolve("in");
        final cctk.results.ResultFiles files = cctk.results.ResultFiles.create(in, ClaimRuns.run("tcp", 2,
            "2026-11-24T17:34:02", ClaimRuns.args(20, 5, 3)));
        files.add(new cctk.results.Line("AllToAllV", 1 << 20, 4, java.util.List.of(ClaimRuns.point(files.run(),
            "alltoallv", 1 << 20, 2, 2), cctk.results.Result.skipped(files.run(), "alltoallv", "float32", null, -1,
            1 << 20, 1 << 18, true, "alltoallv has no in-place form"))));
        files.finish(null);
        final Path out = dir.resolve("out");
        ClaimRuns.report(out, in);
        final String row = java.nio.file.Files.readString(out.resolve("full_results.md")).lines()
            .filter(l -> l.contains("in-place")).findFirst().orElseThrow();
        assertThat(row).contains("| N/A |", "| alltoallv has no in-place form |").doesNotContain("| 0 |");
        assertThat(java.nio.file.Files.readString(out.resolve("report.html")))
            .contains("<td>alltoallv has no in-place form</td>");
    }
}
