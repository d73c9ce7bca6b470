package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.results.Reference;
import cctk.results.inputs.ResultReader;
import cctk.results.judge.ReferenceJudge;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code cctk report} says of a run is true as read: a range of one size is that size once, two figures for
 * one run's plateau each say which figure they are, and "not settled" says what the rule found, with both figures.
 */
@Timeout(120)
class TrueStatementsTest {

    @TempDir
    Path dir;

    /** Result files of a 4 MB, 400 MB all-reduce: busbw 0.96 and 1.00 GB/s. */
    private Path fourAndFourHundredMb() {
        final Path in = dir.resolve("in");
        ClaimRuns.write(in, ClaimRuns.run("tcp", 2, "2026-11-24T17:34:02", ClaimRuns.args(20, 5, 3)),
            new long[] {4_000_000, 400_000_000}, new double[] {0.96, 1}, 2);
        return in;
    }

    @Test
    void aRangeOfOneSizeNamesItOnce() throws Exception {
        // the plateau (sizes >= 1/16 of the largest) is 400 MB alone: the old summary said "400 MB - 400 MB"
        final Path in = fourAndFourHundredMb();
        final Path out = dir.resolve("out");
        assertThat(ClaimRuns.report(out, in)).contains("all_reduce float32 sum tcp W=2: 1.00 GB/s over 400 MB"
            + " (1 size), peak 1.00 GB/s").doesNotContain("400 MB - 400 MB");
        assertThat(Files.readString(out.resolve("summary_by_config.md"))).contains("| 1.00 | 400 MB | 1.00 |",
            "| 2 (4 MB - 400 MB) |").doesNotContain("400 MB - 400 MB");
        assertThat(Files.readString(out.resolve("report.html"))).contains(">400 MB</td>")
            .doesNotContain("400 MB - 400 MB");
        // a reference of one size that no run measured names its size once, and a run's one size once
        final Reference at64 = new Reference("all_reduce", null, null, 64_000_000, 64_000_000, 1, 0.9);
        assertThat(ReferenceJudge.judge(List.of(at64), ResultReader.read(List.of(in))).get(0).line())
            .contains("measured no size within 64 MB (its sizes: 4 MB - 400 MB)");
        final Path one = dir.resolve("one");
        ClaimRuns.write(one, ClaimRuns.run("tcp", 2, "2026-11-24T17:34:02", ClaimRuns.args(20, 5, 3)),
            new long[] {400_000_000}, new double[] {1}, 2);
        assertThat(ReferenceJudge.judge(List.of(at64), ResultReader.read(List.of(one))).get(0).line())
            .contains("(its sizes: 400 MB)").doesNotContain("400 MB - 400 MB");
    }

    @Test
    void twoFiguresForOneRunsPlateauEachSayWhichTheyAre() throws Exception {
        // both sizes lie within 10 %, so busbw is flat over both, whose median is 0.98 GB/s; the plateau is 400 MB
        // alone, 1.00 GB/s. The old conclusion said "1.00 GB/s busbw over 400 MB (1 size). busbw is flat over every
        // size measured (0.98 GB/s over 4 MB - 400 MB (2 sizes))": two figures for one plateau, neither named
        final String text = ClaimRuns.report(dir.resolve("out"), fourAndFourHundredMb());
        assertThat(text).contains("all_reduce float32 sum: one run, tcp W=2, plateau busbw 1.00 GB/s over 400 MB"
            + " (1 size). busbw is flat over every size measured (4 MB - 400 MB (2 sizes), each within 10 % and its"
            + " noise of the highest; the median busbw of every size is 0.98 GB/s)").doesNotContain("(0.98 GB/s over");
    }

    @Test
    void noPlateauSaysWhatTheRuleFoundWithBothFigures() throws Exception {
        // busbw peaks at 2 MiB, then falls by half at 4 MiB: the old conclusion said "no plateau: ... and is
        // 2.00 GB/s at the largest size (4 MiB), unlike the size before"
        final Path in = dir.resolve("in");
        ClaimRuns.write(in, ClaimRuns.run("tcp", 2, "2026-11-24T17:34:02", ClaimRuns.args(20, 5, 3)),
            ClaimRuns.doubling(1 << 20, 3), new double[] {1, 4, 2}, 2);
        assertThat(ClaimRuns.report(dir.resolve("out"), in)).doesNotContain("unlike the size before").contains(
            "not settled: busbw peaks at 4.00 GB/s at 2 MiB; at the largest size, 4 MiB, it is 2.00 GB/s, below the"
                + " peak, at the size before, by more than 10 % and the lower one's noise between repeats; measure"
                + " larger sizes to see where it settles.");
        // a dip, then a rise at the largest size that is still below the peak
        final Path dip = dir.resolve("dip");
        ClaimRuns.write(dip, ClaimRuns.run("tcp", 2, "2026-11-24T17:34:02", ClaimRuns.args(20, 5, 3)),
            ClaimRuns.doubling(1 << 20, 3), new double[] {4, 1, 2}, 2);
        assertThat(ClaimRuns.report(dir.resolve("out2"), dip)).contains("not settled: busbw peaks at 4.00 GB/s at"
            + " 1 MiB; at the largest size, 4 MiB, it is 2.00 GB/s, above the 1.00 GB/s at the size before (2 MiB),"
            + " by more than 10 %");
    }
}
