package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.results.Result;
import org.junit.jupiter.api.Test;

/** What a row reports from its repeats: the median repeat, the spread, the first loops, the loops and why. */
class RowRepeatsTest {

    /** A combined vector of one repeat: every iteration {@code mean}, the first loop's mean {@code first}. */
    private static double[] repeat(final double mean, final double first) {
        final double[] v = new double[PointStats.SLOTS + 2];
        PointStats.encode(MeasureStep.Result.of(new double[] {mean, mean}, 0), 0, v);
        v[PointStats.FIRST_MEAN] = first;
        return v;
    }

    private static MeasureStep.Result loops(final int attempts, final int jit, final int gc, final boolean kept) {
        return new MeasureStep.Result(new double[] {1, 1}, 1, attempts, jit, gc, 0, kept, 0, 0, 0, 0, 0);
    }

    @Test
    void theMedianRepeatIsReportedWithTheSpreadBetweenRepeatsAndTheFirstLoops() {
        final RowRepeats r = new RowRepeats(3, "max");
        r.add(repeat(100, 100), PointStats.SLOTS + 2, loops(1, 0, 0, false), false);
        r.add(repeat(300, 900), PointStats.SLOTS + 2, loops(3, 1, 1, false), false);
        r.add(repeat(120, 500), PointStats.SLOTS + 2, loops(2, 1, 0, false), true);
        assertThat(r.median().timeUs()).isEqualTo(120);
        assertThat(r.wrong()).isZero();
        final Result.Obtained how = r.obtained();
        assertThat(how.repeats()).isEqualTo(3);
        assertThat(how.attempts()).isEqualTo(6);
        assertThat(how.spreadPct()).isCloseTo(100.0 * (300 - 100) / 120, org.assertj.core.data.Offset.offset(1e-3));
        assertThat(how.repeatMinUs()).isEqualTo(100);
        assertThat(how.repeatMaxUs()).isEqualTo(300);
        // without re-timing the row would have said the median of 100, 900 and 500
        assertThat(how.firstTimeUs()).isEqualTo(500);
        assertThat(how.retimed()).isEqualTo("jit 2, gc 1");
    }

    @Test
    void ofAnEvenNumberTheSlowerMiddleRepeatIsReportedAndOneRepeatHasNoSpread() {
        final RowRepeats even = new RowRepeats(2, "max");
        even.add(repeat(10, 10), PointStats.SLOTS + 2, loops(1, 0, 0, false), false);
        even.add(repeat(20, 20), PointStats.SLOTS + 2, loops(4, 3, 0, false), true);
        assertThat(even.median().timeUs()).isEqualTo(20);
        assertThat(even.obtained().retimed()).isEqualTo("jit 3");
        final RowRepeats one = new RowRepeats(1, "max");
        one.add(repeat(10, 10), PointStats.SLOTS + 2, loops(1, 0, 0, false), true);
        assertThat(one.obtained().spreadPct()).isNaN();
        assertThat(one.obtained().retimed()).isNull();
        assertThat(one.obtained().attempts()).isEqualTo(1);
        final RowRepeats lengthened = new RowRepeats(1, "max");
        lengthened.add(repeat(10, 30), PointStats.SLOTS + 2,
            new MeasureStep.Result(new double[] {1, 1}, 30, 3, 1, 0, 1, false, 0, 0, 0, 0, 0), true);
        assertThat(lengthened.obtained().retimed()).isEqualTo("jit 1, short 1");
        assertThat(lengthened.obtained().attempts()).isEqualTo(3);
    }

    @Test
    void aRepeatStillDisturbedIsReplacedAndLeftOutOfTheFigures() {
        final RowRepeats r = new RowRepeats(3, "max");
        r.add(repeat(8, 8), PointStats.SLOTS + 2, loops(1, 0, 0, false), false);
        r.add(repeat(240, 250), PointStats.SLOTS + 2, loops(4, 3, 0, true), false);
        r.add(repeat(230, 240), PointStats.SLOTS + 2, loops(4, 3, 0, true), true);
        // two of three still disturbed: the median would be 230; one more is asked for, then another
        assertThat(r.wantsAnother()).isTrue();
        r.add(repeat(9, 9), PointStats.SLOTS + 2, loops(1, 0, 0, false), false);
        assertThat(r.wantsAnother()).isTrue();
        r.add(repeat(10, 10), PointStats.SLOTS + 2, loops(2, 1, 0, false), false);
        assertThat(r.wantsAnother()).as("at most EXTRA more").isFalse();
        assertThat(r.median().timeUs()).isEqualTo(9);
        final Result.Obtained how = r.obtained();
        assertThat(how.repeats()).isEqualTo(3);
        assertThat(how.attempts()).isEqualTo(12);
        assertThat(how.repeatMinUs()).isEqualTo(8);
        assertThat(how.repeatMaxUs()).isEqualTo(10);
        // a raw measurement's figure: the median of the three asked for's first loops
        assertThat(how.firstTimeUs()).isEqualTo(240);
        assertThat(how.retimed()).isEqualTo("jit 7; 2 disturbed repeats left out");
        assertThat(r.wrong()).isZero();
    }

    @Test
    void rowsWithoutADisturbedRepeatAskForNoMoreAndAllDisturbedAreKeptAndSaid() {
        final RowRepeats clean = new RowRepeats(2, "max");
        clean.add(repeat(8, 8), PointStats.SLOTS + 2, loops(1, 0, 0, false), false);
        assertThat(clean.wantsAnother()).as("not before the repeats asked for").isFalse();
        clean.add(repeat(9, 9), PointStats.SLOTS + 2, loops(2, 1, 0, false), true);
        assertThat(clean.wantsAnother()).isFalse();
        final RowRepeats bad = new RowRepeats(1, "max");
        bad.add(repeat(50, 60), PointStats.SLOTS + 2, loops(4, 3, 0, true), true);
        assertThat(bad.wantsAnother()).isTrue();
        bad.add(repeat(40, 60), PointStats.SLOTS + 2, loops(4, 3, 0, true), false);
        bad.add(repeat(45, 60), PointStats.SLOTS + 2, loops(4, 3, 0, true), false);
        assertThat(bad.wantsAnother()).isFalse();
        assertThat(bad.median().timeUs()).isEqualTo(45);
        assertThat(bad.obtained().repeats()).isEqualTo(3);
        assertThat(bad.obtained().retimed()).isEqualTo("jit 9; 3 kept disturbed");
    }

    @Test
    void warmUpCallsFitTheirShareOfTheTimedLoop() {
        // a 10 ms call before a 20-iteration loop: the first and one more
        assertThat(MeasureStep.warmUpCalls(5, 10_000, 20)).isEqualTo(2);
        // 100 us calls: all five fit the 2 ms floor
        assertThat(MeasureStep.warmUpCalls(5, 100, 20)).isEqualTo(5);
        // 1 ms calls: 2 ms of them
        assertThat(MeasureStep.warmUpCalls(5, 1_000, 20)).isEqualTo(2);
        // a long loop earns more
        assertThat(MeasureStep.warmUpCalls(5, 1_000, 200)).isEqualTo(5);
        assertThat(MeasureStep.warmUpCalls(1, 10_000, 20)).isEqualTo(1);
    }

    @Test
    void aQuickLoopRunsMoreIterationsToFillItsWindowAndSaysSo() {
        final cctk.spec.Benchmark b = HarnessTest.bench(java.util.List.of(cctk.comm.CollectiveType.ALL_REDUCE),
            java.util.List.of(cctk.comm.DType.FLOAT32), java.util.List.of(cctk.comm.ReduceOp.SUM),
            java.util.List.of(new cctk.spec.MessageSize(4, false)), 1, cctk.spec.Benchmark.InPlace.BOTH)
            .withRepeats(3, true);
        // bench(): 2 iterations; no window: exactly iters
        assertThat(MeasureStep.loopIters(b, 25)).isEqualTo(2);
        final cctk.spec.Benchmark w = b.withWindow(10);
        assertThat(MeasureStep.loopIters(w, 25)).isEqualTo(40);   // 400 would fill 10 ms; at most 20 x iters
        assertThat(MeasureStep.loopIters(w, 2_000)).isEqualTo(5);
        assertThat(MeasureStep.loopIters(w, 50_000)).isEqualTo(2);
        assertThat(MeasureStep.loopIters(w, -1)).isEqualTo(2);    // no warm-up call timed: exactly iters
        assertThat(w.maxLoopIters()).isEqualTo(40);
    }

    @Test
    void aLoopThatEndedWithinHalfTheWindowIsTimedAgainWithAsManyCallsAsFillIt() {
        final cctk.spec.Benchmark w = HarnessTest.bench(java.util.List.of(cctk.comm.CollectiveType.ALL_REDUCE),
            java.util.List.of(cctk.comm.DType.FLOAT32), java.util.List.of(cctk.comm.ReduceOp.SUM),
            java.util.List.of(new cctk.spec.MessageSize(4, false)), 0, cctk.spec.Benchmark.InPlace.BOTH).withWindow(10);
        // 2 calls (iters), at most 40: 0.5 ms of a 10 ms window asks for 40; 4.9 ms for 5 (2 x 10 / 4.9, rounded up)
        assertThat(MeasureStep.longerLoop(w, 2, 500)).isEqualTo(40);
        assertThat(MeasureStep.longerLoop(w, 2, 4_900)).isEqualTo(5);
        assertThat(MeasureStep.longerLoop(w, 2, 5_000)).isEqualTo(2);    // half the window: kept
        assertThat(MeasureStep.longerLoop(w, 40, 10)).isEqualTo(40);    // at the most already
        assertThat(MeasureStep.longerLoop(w.withWindow(0), 2, 10)).isEqualTo(2);    // no window: exactly iters
        assertThat(IterationStats.median(new double[] {25, 9_000, 24, 26})).isEqualTo(25);  // one stall moves it not
    }
}
