package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.cli.Main;
import cctk.results.Csvs;
import cctk.results.ResultReader;
import cctk.results.ResultSet;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code cctk compare BASE NEW}: ratios per size, flags beyond the tolerance, exit 1 on a regression. */
@Timeout(60)
class CompareTest {

    @TempDir
    Path dir;

    String[] run(final int expected, final String... args) {
        final StringWriter o = new StringWriter();
        final StringWriter e = new StringWriter();
        final int code = Main.run(new PrintWriter(o), new PrintWriter(e), args);
        assertThat(code).as(o + "\n" + e).isEqualTo(expected);
        return new String[] {o.toString(), e.toString()};
    }

    @Test
    void aDropBeyondTheToleranceIsARegression() throws IOException {
        final Path base = Csvs.allReduce(dir.resolve("a"), "r.csv", "tcp", 2, 10, 10, 10, 10);
        final Path next = Csvs.allReduce(dir.resolve("b"), "r.csv", "tcp", 2, 10, 9.5, 8, 12);
        final String out = run(1, "compare", base.toString(), next.toString())[0];
        assertThat(out).containsPattern("all_reduce +tcp W=2 +float32 sum +out-of-place +16 KiB +10\\.00 +8\\.00 GB/s"
            + " +0\\.80x +±1% +REGRESSED");
        assertThat(out).containsPattern("64 KiB .* 1\\.20x +±1% +IMPROVED");
        assertThat(out).doesNotContain(" 1 KiB ", " 4 KiB ").contains("4 compared (a change counts beyond 10% and beyond the spread): 1 regressed, 1 improved, 0 within"
            + " noise");
        assertThat(run(0, "compare", base.toString(), next.toString(), "--tolerance", "0.25")[0])
            .contains("0 regressed");
        assertThat(run(0, "compare", base.toString(), next.toString(), "--min-size", "64KiB", "--all")[0])
            .contains("1 compared").contains("IMPROVED");
    }

    @Test
    void aDropWithinTheCombinedSpreadIsWithinNoiseNotARegression() throws IOException {
        // at 4 KiB both runs vary by 45 % between iterations: a 30 % drop there is within noise; at 16 KiB (1 %) not
        final Path base = Csvs.allReduce(dir.resolve("a"), "r.csv", "tcp", 2, 10, 10, 10, 10);
        final Path next = Csvs.allReduce(dir.resolve("b"), "r.csv", "tcp", 2, 10, 7, 8, 10);
        final String out = run(1, "compare", base.toString(), next.toString())[0];
        assertThat(out).containsPattern("4 KiB +10\\.00 +7\\.00 GB/s +0\\.70x +±64% +within noise");
        assertThat(out).containsPattern("16 KiB .* 0\\.80x +±1% +REGRESSED");
        assertThat(out).contains("1 regressed, 0 improved, 1 within noise");
        final Comparison c = Comparison.of(ResultReader.read(List.of(base)), ResultReader.read(List.of(next)), 0.1, 0);
        assertThat(c.changes()).extracting(Comparison.Change::flag).containsExactly(Comparison.Flag.SAME,
            Comparison.Flag.NOISE, Comparison.Flag.REGRESSED, Comparison.Flag.SAME);
        assertThat(c.changes().get(1).spread()).isCloseTo(Math.sqrt(2) * 0.45, org.assertj.core.data.Offset.offset(
            1e-9));
    }

    @Test
    void repeatedRunsAreComparedByTheirMedianAndAChangeMustHoldOnEveryRepeat() throws IOException {
        final Path base = dir.resolve("base");
        Csvs.allReduce(base, "r1.csv", "tcp", 2, 10, 10, 10, 10);
        Csvs.allReduce(base, "r2.csv", "tcp", 2, 10, 10, 10, 10);
        final Path next = dir.resolve("next");
        // 64 KiB: one repeat slower, one not: no regression; 16 KiB: both 40 % slower: a regression
        Csvs.allReduce(next, "r1.csv", "tcp", 2, 10, 10, 6, 6);
        Csvs.allReduce(next, "r2.csv", "tcp", 2, 10, 10, 6, 10.5);
        final Comparison c = Comparison.of(ResultReader.read(List.of(base)), ResultReader.read(List.of(next)), 0.1,
            0);
        assertThat(c.changes()).extracting(Comparison.Change::flag).containsExactly(Comparison.Flag.SAME,
            Comparison.Flag.SAME, Comparison.Flag.REGRESSED, Comparison.Flag.NOISE);
        assertThat(c.changes()).allSatisfy(ch -> assertThat(ch.runs()).containsExactly(2, 2));
        // the repeats' scatter (6 against 10.5) counts in the spread
        assertThat(c.changes().get(3).spread()).isGreaterThan(0.7);
        final String out = run(1, "compare", base.toString(), next.toString())[0];
        assertThat(out).contains("repeats: up to 2 runs of BASE and 2 of NEW");
    }

    @Test
    void comparisonMatchesOnlyLikeWithLike() throws IOException {
        final ResultSet a = ResultReader.read(List.of(Csvs.allReduce(dir.resolve("a"), "r.csv", "tcp", 2, 1, 2)));
        final ResultSet b = ResultReader.read(List.of(Csvs.allReduce(dir.resolve("b"), "r.csv", "tcp", 4, 1, 2),
            Csvs.allReduce(dir.resolve("c"), "r.csv", "tcp", 2, 1, 2, 3)));
        final Comparison c = Comparison.of(a, b, 0.1, 0);
        assertThat(c.changes()).hasSize(2).allSatisfy(ch -> assertThat(ch.ratio()).isEqualTo(1.0));
        assertThat(c.onlyBase()).isZero();
        assertThat(c.onlyNew()).isEqualTo(3);
    }

    @Test
    void nothingInCommonIsAUsageError() throws IOException {
        final Path base = Csvs.allReduce(dir.resolve("a"), "r.csv", "tcp", 2, 1);
        final Path next = Csvs.allReduce(dir.resolve("b"), "r.csv", "nccl", 2, 1);
        assertThat(run(2, "compare", base.toString(), next.toString())[1]).contains("nothing to compare");
        assertThat(run(2, "compare", base.toString(), next.toString(), "--tolerance", "3")[1])
            .contains("--tolerance is a fraction");
    }
}
