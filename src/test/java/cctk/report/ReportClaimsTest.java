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
            "How much nccl-tests W=8 vary between iterations is unknown: its files do not record it.",
            "Left out of the plots (a log axis cannot show a value of 0; the tables have these rows):",
            "  all_reduce float32 sum nccl-tests W=8: 8 B - 32 B (2 sizes) with busbw 0.00 GB/s");
        assertThat(java.nio.file.Files.readString(out.resolve("report.html")))
            .contains("all_reduce float32 sum nccl-tests W=8: 8 B - 32 B (2 sizes) with busbw 0.00 GB/s");
        // a cctk run records its spread: the claim stays
        ClaimRuns.write(dir.resolve("in"), ClaimRuns.run("tcp", 2, "2026-11-24T17:34:02", ClaimRuns.args(20, 5, 3)),
            ClaimRuns.doubling(1 << 20, 3), new double[] {1, 2, 2}, 2);
        assertThat(ClaimRuns.report(dir.resolve("out2"), dir.resolve("in"))).contains(
            "no measurement varies by more than 20.00 % between iterations").doesNotContain("Left out of the plots");
    }
}
