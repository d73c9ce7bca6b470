package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import cctk.cli.Main;
import cctk.results.Result;
import cctk.results.inputs.ResultReader;
import cctk.results.ResultSet;
import cctk.results.Run;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cctk compare BASE NEW}: ratios per size judged on time, flags beyond the tolerance and the noise (from
 * repeated runs, repeats, or conservatively from within one run), outlier runs left out, the whole comparison
 * judged by a sign test, and exit 1 on a regression or when the machine changed.
 */
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

    private static ResultSet set(final List<List<Result>> runs) {
        final List<Result> all = new ArrayList<>();
        runs.forEach(all::addAll);
        return new ResultSet(all, List.of());
    }

    private static long changed(final Comparison c) {
        return c.count(Comparison.Flag.REGRESSED) + c.count(Comparison.Flag.IMPROVED);
    }

    @Test
    void aDropBeyondTheToleranceAndTheNoiseIsARegression() throws IOException {
        final Path base = CompareRuns.allReduce(dir.resolve("a"), "r.csv", "tcp", 2, 10, 10, 10, 10);
        final Path next = CompareRuns.allReduce(dir.resolve("b"), "r.csv", "tcp", 2, 10, 9.5, 5, 20);
        final String out = run(1, "compare", base.toString(), next.toString())[0];
        // single runs without repeats: each side's noise is at least 25 %, so the band is ±35 %
        assertThat(out).containsPattern("all_reduce +tcp W=2 +float32 sum +out-of-place +16 KiB +1\\.64 +3\\.28 us"
            + " +0\\.50x +±35% +REGRESSED");
        assertThat(out).containsPattern("64 KiB +10\\.00 +20\\.00 GB/s +2\\.00x +±35% +IMPROVED");
        assertThat(out).doesNotContain(" 1 KiB ", " 4 KiB ").contains("4 compared (a change counts beyond 10% and"
            + " beyond the noise): 1 regressed, 1 improved, 0 within noise");
        assertThat(out).contains("4 from a single run without repeats", "conservative",
            "too few cells for a sign test");
        assertThat(run(0, "compare", base.toString(), next.toString(), "--min-size", "64KiB", "--all")[0])
            .contains("1 compared").contains("IMPROVED");
    }

    @Test
    void aDropWithinTheCombinedSpreadIsWithinNoiseNotARegression() throws IOException {
        // at 4 KiB both runs vary by 45 % between iterations: a 30 % drop there is within noise; at 16 KiB 1 %, but
        // single runs without repeats count at least 25 % a side: 20 % is within noise too; 50 % at 64 KiB is not
        final Path base = CompareRuns.allReduce(dir.resolve("a"), "r.csv", "tcp", 2, 10, 10, 10, 10);
        final Path next = CompareRuns.allReduce(dir.resolve("b"), "r.csv", "tcp", 2, 10, 7, 8, 5);
        final String out = run(1, "compare", base.toString(), next.toString())[0];
        assertThat(out).containsPattern("4 KiB +0\\.41 +0\\.59 us +0\\.70x +±64% +within noise");
        assertThat(out).containsPattern("16 KiB .* 0\\.80x +±35% +within noise");
        assertThat(out).containsPattern("64 KiB .* 0\\.50x +±35% +REGRESSED");
        assertThat(out).contains("1 regressed, 0 improved, 2 within noise");
        final Comparison c = Comparison.of(ResultReader.read(List.of(base)), ResultReader.read(List.of(next)), 0.1, 0);
        assertThat(c.changes()).extracting(Comparison.Change::flag).containsExactly(Comparison.Flag.SAME,
            Comparison.Flag.NOISE, Comparison.Flag.NOISE, Comparison.Flag.REGRESSED);
        assertThat(c.changes().get(1).spread()).isCloseTo(Math.sqrt(2) * 0.45, offset(1e-9));
        assertThat(c.changes().get(2).spread()).isCloseTo(Math.sqrt(2) * Noise.SINGLE_FLOOR, offset(1e-9));
        assertThat(c.changes()).allSatisfy(ch -> assertThat(ch.basis()).isEqualTo(Comparison.Basis.ITERATIONS));
    }

    @Test
    void repeatedRunsAreComparedByTheirMedianAndAChangeMustHoldOnEveryRun() throws IOException {
        final Path base = dir.resolve("base");
        CompareRuns.allReduce(base, "r1.csv", "tcp", 2, 10, 10, 10, 10);
        CompareRuns.allReduce(base, "r2.csv", "tcp", 2, 10, 10, 10, 10);
        final Path next = dir.resolve("next");
        // 64 KiB: one run slower, one not: no regression; 16 KiB: both 40 % slower: a regression
        CompareRuns.allReduce(next, "r1.csv", "tcp", 2, 10, 10, 6, 6);
        CompareRuns.allReduce(next, "r2.csv", "tcp", 2, 10, 10, 6, 10.5);
        final Comparison c = Comparison.of(ResultReader.read(List.of(base)), ResultReader.read(List.of(next)), 0.1,
            0);
        assertThat(c.changes()).extracting(Comparison.Change::flag).containsExactly(Comparison.Flag.SAME,
            Comparison.Flag.SAME, Comparison.Flag.REGRESSED, Comparison.Flag.NOISE);
        assertThat(c.changes()).allSatisfy(ch -> assertThat(ch.runs()).containsExactly(2, 2));
        // the runs' scatter (6 against 10.5) counts in the noise
        assertThat(c.changes().get(3).spread()).isGreaterThan(0.7);
        final String out = run(1, "compare", base.toString(), next.toString())[0];
        assertThat(out).contains("repeats: up to 2 runs of BASE and 2 of NEW", "4 from repeated runs")
            .doesNotContain("conservative");
    }

    @Test
    void rerunsWithRealisticNoiseChangeNoCellAndExitZero() throws IOException {
        // four back-to-back pairs of single runs whose rows are medians of 5 repeats, the machine as noisy between
        // runs (3 %) as between repeats (4 %): a band as narrow as the repeats' spread would flag cells here
        final Random rnd = new Random(42);
        int narrow = 0;
        for (int pair = 0; pair < 4; pair++) {
            final List<Result> b = CompareRuns.run(CompareRuns.bare("b" + pair), rnd, 0.03, 0.04, 5, 1);
            final List<Result> n = CompareRuns.run(CompareRuns.bare("n" + pair), rnd, 0.03, 0.04, 5, 1);
            final Comparison c = Comparison.of(set(List.of(b)), set(List.of(n)), 0.1, 0);
            assertThat(c.changes()).hasSize(16).allSatisfy(ch -> assertThat(ch.basis())
                .isEqualTo(Comparison.Basis.REPEATS));
            assertThat(changed(c)).as("pair " + pair).isZero();
            assertThat(c.whole().kind()).isEqualTo(CompareVerdict.Kind.NONE);
            narrow += (int) c.changes().stream().filter(ch -> Math.abs(Math.log(ch.ratio())) > Math.log1p(
                Math.hypot(Noise.repeats(ch.base()), Noise.repeats(ch.next())) / 2)).count();
        }
        assertThat(narrow).as("cells a band of the repeats' half-spread alone would flag").isPositive();
        final Path base = CompareRuns.runs(dir.resolve("base"), 1, r -> CompareRuns.run(r, rnd, 0.03, 0.04, 5, 1));
        final Path next = CompareRuns.runs(dir.resolve("next"), 1, r -> CompareRuns.run(r, rnd, 0.03, 0.04, 5, 1));
        final String out = run(0, "compare", base.toString(), next.toString())[0];
        assertThat(out).contains("16 compared", "0 regressed, 0 improved", "16 from a single run's spread between"
            + " repeats", "verdicts on single runs rest on the spread within one run");
        // three runs a side
        final Path base3 = CompareRuns.runs(dir.resolve("base3"), 3, r -> CompareRuns.run(r, rnd, 0.03, 0.04, 5, 1));
        final Path next3 = CompareRuns.runs(dir.resolve("next3"), 3, r -> CompareRuns.run(r, rnd, 0.03, 0.04, 5, 1));
        assertThat(run(0, "compare", base3.toString(), next3.toString())[0]).contains("0 regressed, 0 improved",
            "16 from repeated runs", "no change of the whole run").doesNotContain("left out");
    }

    @Test
    void aConsistentSlowdownWithOneDisturbedBaseRunIsARegressionAndTheRunIsLeftOut() throws IOException {
        // like taskset -c 0: every cell of NEW 0.36 .. 0.69 times as fast; one BASE run disturbed across the board
        final Random rnd = new Random(7);
        final double[] slow = new double[16];
        for (int i = 0; i < slow.length; i++) {
            slow[i] = 1 / (0.36 + 0.33 * rnd.nextDouble());
        }
        final Path base = CompareRuns.runs(dir.resolve("base"), 3, r -> CompareRuns.run(r, rnd, 0.02, 0.04, 5,
            r.source().endsWith("r2.csv") ? 2.2 : 1));
        final Path next = CompareRuns.runs(dir.resolve("next"), 3, r -> CompareRuns.run(r, rnd, 0.02, 0.04, 5, slow));
        final String out = run(1, "compare", base.toString(), next.toString())[0];
        assertThat(out).containsPattern("note: BASE run " + java.util.regex.Pattern.quote(base.resolve("r2.csv")
            .toString()) + " left out as an outlier: its times lie 1[0-9][0-9]% above those of the other 2 runs");
        assertThat(out).contains("16 regressed", "16 of 16 cells slower", "the whole run regressed (sign test"
            + " p=1.5e-05");
        // kept in, the disturbed run would widen every cell's band beyond the slowdown
        final ResultSet b = ResultReader.read(List.of(base));
        final Comparison c = Comparison.of(b, ResultReader.read(List.of(next)), 0.1, 0);
        assertThat(c.notes()).hasSize(1);
        assertThat(c.changes()).allSatisfy(ch -> assertThat(ch.spread()).isLessThan(0.3));
        assertThat(Noise.side(b.results().stream().filter(r -> r.sizeBytes() == 4 && "all_reduce".equals(
            r.collective())).toList())).isGreaterThan(1);
    }

    @Test
    void nearlyEveryCellSlowerIsARegressionEvenWhereEachCellIsWithinNoise() {
        // 3 runs a side; in each cell the runs scatter 0.8 .. 1.25 (which run is which changes from cell to cell,
        // so no run is off as a whole); NEW 1.35 times slower: no cell's runs all lie beyond the other side's
        final List<List<Result>> bs = new ArrayList<>();
        final List<List<Result>> ns = new ArrayList<>();
        final double[] f = {0.8, 1.0, 1.25};
        for (int j = 0; j < 3; j++) {
            bs.add(latinRun(CompareRuns.bare("b" + j), f, j, 1));
            ns.add(latinRun(CompareRuns.bare("n" + j), f, j, 1.35));
        }
        final Comparison c = Comparison.of(set(bs), set(ns), 0.1, 0);
        assertThat(c.changes()).hasSize(16).allSatisfy(ch -> assertThat(ch.flag()).isEqualTo(Comparison.Flag.NOISE));
        assertThat(c.notes()).isEmpty();
        assertThat(c.whole().kind()).isEqualTo(CompareVerdict.Kind.REGRESSED);
        assertThat(c.whole().slower()).isEqualTo(16);
        assertThat(c.regressed()).isTrue();
        // the same scatter, but NEW as fast as BASE: no whole-run change
        final List<List<Result>> same = new ArrayList<>();
        for (int j = 0; j < 3; j++) {
            same.add(latinRun(CompareRuns.bare("s" + j), f, (j + 1) % 3, 1));
        }
        assertThat(Comparison.of(set(bs), set(same), 0.1, 0).whole().kind()).isEqualTo(CompareVerdict.Kind.NONE);
    }

    /** A run without repeats whose cell i is {@code slow} times the truth times {@code f[(i + j) % 3]}. */
    private static List<Result> latinRun(final Run run, final double[] f, final int j, final double slow) {
        final List<Result> out = new ArrayList<>();
        int i = 0;
        for (final String c : CompareRuns.COLLECTIVES) {
            for (final long size : CompareRuns.SIZES) {
                out.add(CompareRuns.row(run, c, size, CompareRuns.truth(size) * slow * f[(i + j) % 3]));
                i++;
            }
        }
        return out;
    }

    @Test
    void cellsMovingBeyondNoiseBothWaysMeanTheMachineChanged() throws IOException {
        // 5 cells twice as fast, 5 half as fast, the rest alike: no code change does that
        final double[] slow = new double[16];
        for (int i = 0; i < slow.length; i++) {
            slow[i] = i % 3 == 0 ? 0.5 : i % 3 == 1 ? 2 : 1;
        }
        slow[15] = 1;
        final Random rnd = new Random(3);
        final Path base = CompareRuns.runs(dir.resolve("base"), 1, r -> CompareRuns.run(r, rnd, 0.01, 0.02, 5, 1));
        final Path next = CompareRuns.runs(dir.resolve("next"), 1, r -> CompareRuns.run(r, rnd, 0.01, 0.02, 5, slow));
        final String out = run(1, "compare", base.toString(), next.toString())[0];
        assertThat(out).contains("5 regressed, 5 improved", "the machine changed (5 faster, 5 slower beyond noise):"
            + " the runs are not comparable");
    }

    @Test
    void latencySizesAreComparedOnTimeNotOnRoundedBusbw() throws IOException {
        final Run b = CompareRuns.bare("b");
        final Run n = CompareRuns.bare("n");
        final List<Result> base = List.of(CompareRuns.row(b, "all_reduce", 4, 10, 10.2, 10.4, 9.9, 10.1),
            CompareRuns.row(b, "all_reduce", 8, 10, 10.2, 10.4, 9.9, 10.1));
        final List<Result> next = List.of(CompareRuns.row(n, "all_reduce", 4, 20, 20.4, 20.8, 19.8, 20.2),
            CompareRuns.row(n, "all_reduce", 8, 10.3, 10.2, 10.4, 9.9, 10.1));
        final Comparison c = Comparison.of(set(List.of(base)), set(List.of(next)), 0.1, 0);
        assertThat(c.changes().get(0).ratio()).isCloseTo(0.5, offset(0.01));
        assertThat(c.changes()).extracting(Comparison.Change::flag).containsExactly(Comparison.Flag.REGRESSED,
            Comparison.Flag.SAME);
        final Path bf = CompareRuns.write(dir.resolve("b"), "r.csv", base);
        final Path nf = CompareRuns.write(dir.resolve("n"), "r.csv", next);
        final String out = run(1, "compare", bf.toString(), nf.toString(), "--all")[0];
        assertThat(out).containsPattern("all_reduce +tcp W=2 .* +4 B +10\\.10 +20\\.20 us +0\\.50x +±21% +REGRESSED");
        assertThat(out).doesNotContain("GB/s", "0.00 ");
    }

    @Test
    void comparisonMatchesOnlyLikeWithLike() throws IOException {
        final ResultSet a = ResultReader.read(List.of(CompareRuns.allReduce(dir.resolve("a"), "r.csv", "tcp", 2, 1,
            2)));
        final ResultSet b = ResultReader.read(List.of(CompareRuns.allReduce(dir.resolve("b"), "r.csv", "tcp", 4, 1, 2),
            CompareRuns.allReduce(dir.resolve("c"), "r.csv", "tcp", 2, 1, 2, 3)));
        final Comparison c = Comparison.of(a, b, 0.1, 0);
        assertThat(c.changes()).hasSize(2).allSatisfy(ch -> assertThat(ch.ratio()).isCloseTo(1.0, offset(1e-9)));
        assertThat(c.onlyBase()).isZero();
        assertThat(c.onlyNew()).isEqualTo(3);
    }

    @Test
    void nothingInCommonIsAUsageError() throws IOException {
        final Path base = CompareRuns.allReduce(dir.resolve("a"), "r.csv", "tcp", 2, 1);
        final Path next = CompareRuns.allReduce(dir.resolve("b"), "r.csv", "nccl", 2, 1);
        assertThat(run(2, "compare", base.toString(), next.toString())[1]).contains("nothing to compare");
        assertThat(run(2, "compare", base.toString(), next.toString(), "--tolerance", "3")[1])
            .contains("--tolerance is a fraction");
    }

    @Test
    void theSignTestCountsTheChanceOfSoManyOnOneSide() {
        assertThat(SignTest.atLeast(0, 0)).isEqualTo(1.0);
        assertThat(SignTest.atLeast(1, 0)).isZero();
        assertThat(SignTest.atLeast(16, 16)).isCloseTo(1.0 / 65536, offset(1e-12));
        assertThat(SignTest.atLeast(8, 16)).isCloseTo(0.5982, offset(1e-4));
        assertThat(SignTest.atLeast(30, 32)).isCloseTo(529.0 / (1L << 32), offset(1e-12));
        assertThat(SignTest.atLeast(600, 1000)).isLessThan(1e-9).isPositive();
    }

    @Test
    void aLoneSingleRunCellBeyondItsBandButAgainstNoTendencyIsWithinTheNoiseBetweenRuns() {
        // the case measured on the 2-vCPU VM: back-to-back single runs, one cell 1.58x apart beyond a ±21 % band,
        // the other cells scattered both ways
        final Run a = CompareRuns.bare("a.csv");
        final Run b = CompareRuns.bare("b.csv");
        final List<Result> base = new java.util.ArrayList<>();
        final List<Result> next = new java.util.ArrayList<>();
        final double[] moves = {1.03, 0.97, 1.04, 0.96, 1.05, 0.95, 1.02, 0.98, 1.03, 0.97, 1.04, 0.96, 1.05, 0.95, 1.0};
        for (int i = 0; i < moves.length; i++) {
            final long size = 1L << (10 + i);
            final double t = CompareRuns.truth(size);
            base.add(CompareRuns.row(a, "all_reduce", size, t * 0.97, t, t * 1.03));
            next.add(CompareRuns.row(b, "all_reduce", size, t / moves[i] * 0.97, t / moves[i], t / moves[i] * 1.03));
        }
        final double t = CompareRuns.truth(1L << 30);
        base.add(CompareRuns.row(a, "all_gather", 1L << 30, t * 0.95, t, t * 1.05));
        next.add(CompareRuns.row(b, "all_gather", 1L << 30, t / 1.58 * 0.95, t / 1.58, t / 1.58 * 1.05));
        final Comparison lone = Comparison.of(new ResultSet(base, List.of()), new ResultSet(next, List.of()), 0.1, 0);
        assertThat(lone.changes()).noneMatch(c -> c.flag() == Comparison.Flag.IMPROVED
            || c.flag() == Comparison.Flag.REGRESSED);
        assertThat(lone.whole().kind()).isEqualTo(CompareVerdict.Kind.NONE);
        // the same 1.58x with a tendency of the whole (every other cell 10 % faster) is flagged
        final List<Result> faster = new java.util.ArrayList<>();
        for (final Result r : next.subList(0, moves.length)) {
            final double f = r.timeUs() * moves[next.indexOf(r)] / 1.1;
            faster.add(CompareRuns.row(b, "all_reduce", r.sizeBytes(), f * 0.97, f, f * 1.03));
        }
        faster.add(next.get(moves.length));
        final Comparison trend = Comparison.of(new ResultSet(base, List.of()), new ResultSet(faster, List.of()), 0.1,
            0);
        assertThat(trend.changes().get(moves.length).flag()).isEqualTo(Comparison.Flag.IMPROVED);
    }
}
