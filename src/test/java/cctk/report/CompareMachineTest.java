package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.results.CrossCoreReadings;
import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code cctk compare} and the machine's cross-core readings (rank 0's 1 MiB round trip between two cores, before the
 * warm-up and after the sweep): cells that moved while the readings lie more than twofold apart are not called a
 * change of the code.
 */
@Timeout(20)
class CompareMachineTest {

    /** A run with 3 repeats a row whose readings were {@code start} and {@code end} µs. */
    private static ResultSet run(final String name, final double start, final double end, final Random rnd,
                                 final double... slow) {
        final Map<String, Object> args = new LinkedHashMap<>();
        args.put(CrossCoreReadings.ARG, CrossCoreReadings.json(start, 60, start * 0.9, false, null));
        args.put(CrossCoreReadings.AT_END, CrossCoreReadings.json(end, 60, end * 0.9, false, null));
        final Run r = new Run(name, null, null, null, null, "tcp", 2, null, List.of(), List.of(), Map.of(), args,
            List.of(), null, null);
        return new ResultSet(new ArrayList<>(CompareRuns.run(r, rnd, 0.01, 0.02, 3, slow)), List.of());
    }

    /** The cells' slowdowns of this VM's slow cross-core mode: all_reduce at 1 and 4 MiB three times slower. */
    private static double[] slowMode() {
        final double[] slow = new double[2 * CompareRuns.SIZES.length];
        java.util.Arrays.fill(slow, 1);
        slow[4] = 3; // all_reduce 1 MiB (cells: all_reduce's sizes, then all_gather's; times 3x as long)
        slow[5] = 2.5; // all_reduce 4 MiB
        return slow;
    }

    /**
     * BASE read 95 and 102 µs; NEW read {@code start} and {@code end} µs, with this VM's slow-mode cells: the 2 cells
     * are REGRESSED either way, whatever the whole verdict.
     */
    private static Comparison slowModeAgainst(final double start, final double end) {
        final Random rnd = new Random(7);
        final ResultSet base = run("base.json", 95, 102, rnd, 1);
        final ResultSet next = run("next.json", start, end, rnd, slowMode());
        final Comparison c = Comparison.of(base, next, 0.1, 0);
        assertThat(c.count(Comparison.Flag.REGRESSED)).isEqualTo(2);
        return c;
    }

    @Test
    void cellsThatMovedWhileTheMachinesReadingsLayFivefoldApartAreNotCalledAChangeOfTheCode() {
        final Comparison c = slowModeAgainst(488, 501);
        assertThat(c.whole().kind()).isEqualTo(CompareVerdict.Kind.MACHINE_CHANGED);
        assertThat(c.whole().fails()).as("not comparable is no pass").isTrue();
        assertThat(c.whole().text()).startsWith("the machine changed: a 1 MiB round trip between two cores (rank 0's"
            + " reading before and after each sweep) took 95 and 102 µs in BASE's runs and 488 and 501 µs in NEW's,"
            + " more than 2x apart, and 2 cells moved beyond noise (0 faster, 2 slower)");
    }

    @Test
    void theSameMovesOnAMachineWhoseReadingsAgreeAreAChange() {
        final Comparison c = slowModeAgainst(99, 110);
        assertThat(c.whole().kind()).isNotEqualTo(CompareVerdict.Kind.MACHINE_CHANGED);
        assertThat(c.regressed()).isTrue();
        assertThat(c.whole().text()).doesNotContain("round trip");
    }

    @Test
    void readingsApartWithNoCellMovedAreSaidButChangeNothing() {
        final Random rnd = new Random(7);
        final ResultSet base = run("base.json", 95, 102, rnd, 1);
        final ResultSet next = run("next.json", 488, 501, rnd, 1);
        final Comparison c = Comparison.of(base, next, 0.1, 0);
        assertThat(c.whole().kind()).isEqualTo(CompareVerdict.Kind.NONE);
        assertThat(c.whole().text()).endsWith("; the machine's 1 MiB round trip between two cores took 95 and 102 µs"
            + " in BASE's runs and 488 and 501 µs in NEW's");
    }

    @Test
    void aRealSlowdownStaysARegressionWhenOnlyOneSideTookReadings() {
        final Random rnd = new Random(7);
        final ResultSet base = run("base.json", Double.NaN, Double.NaN, rnd, 1);
        final double[] slow = new double[2 * CompareRuns.SIZES.length];
        java.util.Arrays.fill(slow, 2.5);
        final ResultSet next = run("next.json", 480, 500, rnd, slow);
        final Comparison c = Comparison.of(base, next, 0.1, 0);
        assertThat(c.whole().drift().base()).isEmpty();
        assertThat(c.whole().kind()).isEqualTo(CompareVerdict.Kind.REGRESSED);
        assertThat(c.regressed()).isTrue();
    }

    /** {@code set}'s rows, each carrying the reading {@code us[cell]} (cells in CompareRuns' order; one: for all). */
    private static ResultSet read(final ResultSet set, final double... us) {
        final List<Result> out = new ArrayList<>();
        int cell = 0;
        for (final Result r : set.results()) {
            final Result.Obtained h = r.how();
            final Result.Obtained with = new Result.Obtained(h.repeats(), h.iters(), h.attempts(), h.spreadPct(),
                h.repeatMinUs(), h.repeatMaxUs(), h.firstTimeUs(), h.retimed(), h.timeAcrossRanks(),
                us[Math.min(cell++, us.length - 1)]);
            out.add(new Result(r.run(), r.collective(), r.dtype(), r.op(), r.root(), r.sizeBytes(), r.count(),
                r.inPlace(), r.timeUs(), r.minUs(), r.p50Us(), r.p99Us(), r.cvPct(), r.algBw(), r.busBw(), r.wrong(),
                r.skipped(), with));
        }
        return new ResultSet(out, List.of());
    }

    @Test
    void aSizeMeasuredInTheOtherModeIsNotJudgedAndTheRestIs() {
        // a rerun of the same code: NEW's 1 and 4 MiB all_reduce were measured with the machine in its slow mode
        // (their rows read 300 µs against 55), and moved 2.5-3x; every other cell is as in BASE
        final Random rnd = new Random(7);
        final ResultSet base = read(run("base.json", 55, 58, rnd, 1), 55);
        final double[] modes = new double[2 * CompareRuns.SIZES.length];
        java.util.Arrays.fill(modes, 55);
        modes[4] = 300;
        modes[5] = 300;
        final ResultSet next = read(run("next.json", 56, 57, rnd, slowMode()), modes);
        final Comparison c = Comparison.of(base, next, 0.1, 0);
        assertThat(c.count(Comparison.Flag.MACHINE)).isEqualTo(2);
        assertThat(c.count(Comparison.Flag.REGRESSED)).isZero();
        assertThat(c.regressed()).isFalse();
        assertThat(c.whole().kind()).isEqualTo(CompareVerdict.Kind.NONE);
        assertThat(c.whole().cells()).as("judged cells").isEqualTo(14);
        assertThat(c.whole().text()).contains("2 cell(s) not judged, as the machine's 1 MiB round trip between two"
            + " cores, read with them, differed more than 2x");
    }

    @Test
    void theSameSlowCellsAreARegressionWhereTheirRowsReadTheSameMachine() {
        final Random rnd = new Random(7);
        final ResultSet base = read(run("base.json", 55, 58, rnd, 1), 55);
        final ResultSet next = read(run("next.json", 56, 57, rnd, slowMode()), 57);
        final Comparison c = Comparison.of(base, next, 0.1, 0);
        assertThat(c.count(Comparison.Flag.MACHINE)).isZero();
        assertThat(c.count(Comparison.Flag.REGRESSED)).isEqualTo(2);
        assertThat(c.regressed()).isTrue();
    }

    @Test
    void aRunMeasuredMostlyInTheOtherModeIsNotComparable() {
        // every cell slower and read in the other mode: nothing can be judged, and that is no pass
        final Random rnd = new Random(7);
        final double[] slow = new double[2 * CompareRuns.SIZES.length];
        java.util.Arrays.fill(slow, 1.8);
        final ResultSet base = read(run("base.json", 55, 58, rnd, 1), 55);
        final ResultSet next = read(run("next.json", 290, 300, rnd, slow), 300);
        final Comparison c = Comparison.of(base, next, 0.1, 0);
        assertThat(c.count(Comparison.Flag.MACHINE)).isEqualTo(16);
        assertThat(c.whole().kind()).isEqualTo(CompareVerdict.Kind.MACHINE_CHANGED);
        assertThat(c.whole().fails()).isTrue();
        assertThat(c.whole().text()).startsWith("the machine changed: 16 cells moved while the machine's 1 MiB round"
            + " trip between two cores, read with each of them, differed more than 2x between the sides");
    }
    /**
     * One side of 3 runs: run {@code i} read {@code us[i]} with every row, and was measured with this VM's slow-mode
     * cells where it read 300 µs; every cell of every run is {@code factor} times as slow besides.
     */
    private static ResultSet side(final String name, final Random rnd, final double factor, final double... us) {
        final List<Result> all = new ArrayList<>();
        for (int i = 0; i < us.length; i++) {
            final double[] slow = us[i] >= 300 ? slowMode() : new double[2 * CompareRuns.SIZES.length];
            if (us[i] < 300) {
                java.util.Arrays.fill(slow, 1);
            }
            for (int c = 0; c < slow.length; c++) {
                slow[c] *= factor;
            }
            all.addAll(read(run(name + i + ".json", us[i], us[i], rnd, slow), us[i]).results());
        }
        return new ResultSet(all, List.of());
    }

    @Test
    void sidesWhoseRunsCameInBothModesAreComparedModeWithMode() {
        // reruns of the same code: BASE's runs came fast, fast, slow; NEW's fast, slow, slow. Compared by medians, the
        // two slow-mode cells would read BASE's fast mode against NEW's slow one ("machine moved")
        final Random rnd = new Random(7);
        final ResultSet base = side("base", rnd, 1, 55, 56, 300);
        final ResultSet next = side("next", rnd, 1, 57, 300, 310);
        final Comparison c = Comparison.of(base, next, 0.1, 0);
        assertThat(c.count(Comparison.Flag.MACHINE)).isZero();
        assertThat(c.count(Comparison.Flag.REGRESSED)).isZero();
        assertThat(c.count(Comparison.Flag.IMPROVED)).isZero();
        assertThat(c.regressed()).isFalse();
        assertThat(c.whole().kind()).isEqualTo(CompareVerdict.Kind.NONE);
        assertThat(c.changes()).allSatisfy(ch -> assertThat(ch.ratio()).isBetween(0.9, 1.1));
        assertThat(c.notes()).anySatisfy(n -> assertThat(n).startsWith("16 cell(s) measured in both of the machine's"
            + " modes were compared on the rows measured in the same mode on both sides (a 1 MiB round trip between"
            + " two cores of about 56 µs); 48 row(s) measured in the other mode (about 300 µs) left out"));
    }

    @Test
    void aRealSlowdownMeasuredInBothModesIsStillARegression() {
        final Random rnd = new Random(7);
        final ResultSet base = side("base", rnd, 1, 55, 56, 300);
        final ResultSet next = side("next", rnd, 2, 57, 300, 310);
        final Comparison c = Comparison.of(base, next, 0.1, 0);
        assertThat(c.count(Comparison.Flag.MACHINE)).isZero();
        assertThat(c.count(Comparison.Flag.REGRESSED)).isEqualTo(16);
        assertThat(c.whole().kind()).isEqualTo(CompareVerdict.Kind.REGRESSED);
        assertThat(c.regressed()).isTrue();
    }
}
