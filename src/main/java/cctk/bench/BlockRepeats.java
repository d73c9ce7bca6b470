package cctk.bench;

import cctk.coll.Collective;
import cctk.comm.Communicator;
import cctk.spec.Benchmark;
import java.util.List;
import java.util.function.Consumer;

/**
 * The repeats of one size's rows, and what the sweep's repeats add up to. Every row of the size is measured
 * {@code repeats} times in separate timed loops, interleaved: every repeat runs all of them (in reverse order every
 * other repeat, so no point always follows the same one), and the last one also checks. A repeat still disturbed
 * after its re-timings is replaced by one more after the others ({@link RowRepeats#wantsAnother}). Then the machine
 * is read ({@link MachineWatch}); where it moved while the size was measured, every repeat is measured once more,
 * within the fixed costs' share of the job's limit (never when re-timing is off). Each repeat is combined over the
 * ranks by one reduction ({@link PointStats}); the tallies (timed loops, fill and check) feed the footer.
 * <b>Note:</b> not threadsafe: the sweep's thread drives it.
 */
final class BlockRepeats {

    private final Communicator comm;
    private final Benchmark bench;
    private final MeasureStep step;
    private final SweepBuffers buffers;
    private final RankReduction reduction;
    private final double[] figures;
    private final MachineWatch watch;
    private final Consumer<SweepPlan.Point> current;
    /** The time left for sizes measured again for the machine (ns). */
    private long againBudgetNanos;
    private boolean anyWrong;
    private double dataNanos;
    private double dataBytes;
    private long loopNanos;
    private long loops;
    private long myDataNanos;

    /**
     * The repeats of {@code comm}'s sweep on {@code buffers}, combined by {@code reduction} into {@code figures};
     * {@code current} hears of the point being measured (for the fault message); {@code againNanos} bounds the time
     * spent measuring sizes again for the machine.
     */
    BlockRepeats(final Communicator comm, final Benchmark bench, final MeasureStep step, final SweepBuffers buffers,
                 final RankReduction reduction, final double[] figures, final MachineWatch watch,
                 final long againNanos, final Consumer<SweepPlan.Point> current) {
        this.comm = comm;
        this.bench = bench;
        this.step = step;
        this.buffers = buffers;
        this.reduction = reduction;
        this.figures = figures;
        this.watch = watch;
        this.againBudgetNanos = againNanos;
        this.current = current;
    }

    /** Measures the rows of one size, as the class says; each measured row then carries the machine's reading. */
    void measure(final List<PointRows.Row> rows) {
        final int repeats = Math.max(1, bench.repeats());
        boolean again = false;
        while (true) {
            final long began = System.nanoTime();
            for (int r = 0; r < repeats; r++) {
                for (int k = 0; k < rows.size(); k++) {
                    final PointRows.Row row = rows.get(r % 2 == 0 ? k : rows.size() - 1 - k);
                    if (row.repeats() != null) {
                        once(row, r == repeats - 1);
                    }
                }
            }
            // a repeat still disturbed after its re-timings is replaced, now that the block's other rows ran
            for (int extra = 0; extra < RowRepeats.EXTRA; extra++) {
                for (final PointRows.Row row : rows) {
                    if (row.repeats() != null && row.repeats().wantsAnother()) {
                        once(row, false);
                    }
                }
            }
            final long took = System.nanoTime() - began;
            // raw measurement (retime: false) times nothing again, for the machine neither; the reading is kept
            if (!watch.measuredAgain(!again && bench.retime() && took <= againBudgetNanos)) {
                break;
            }
            againBudgetNanos -= took;
            again = true;
            for (final PointRows.Row row : rows) {
                if (row.repeats() != null) {
                    row.repeats().again();
                }
            }
        }
        for (final PointRows.Row row : rows) {
            if (row.repeats() != null) {
                row.repeats().machine(watch.lastUs());
            }
        }
    }

    /** One repeat of a row, combined over the ranks by one reduction; {@code check}: it also runs the checks. */
    private void once(final PointRows.Row row, final boolean check) {
        current.accept(row.point());
        final Collective coll = row.point().coll();
        final MeasureStep.Result mine = step.run(coll, row.c(), coll.carriesData() ? buffers.slices(row.c().layout(),
            row.inPlace()) : null, check);
        loopNanos += mine.loopNanos();
        loops += mine.attempts();
        myDataNanos += mine.fillCheckNanos();
        final int n = PointStats.encode(mine, comm.rank(), figures);
        PointStats.overRanks(reduction, figures, n, bench.timeAcrossRanks());
        dataNanos += figures[PointStats.DATA_NANOS];
        dataBytes += figures[PointStats.DATA_BYTES];
        row.repeats().add(figures, n, mine, check);
        if (check) {
            anyWrong |= row.repeats().wrong() > 0;
        }
    }

    /** Whether any checked repeat found a wrong element. */
    boolean anyWrong() {
        return anyWrong;
    }

    /** The wall time of every timed loop of this rank (ns), re-timed ones included. */
    long loopNanos() {
        return loopNanos;
    }

    /** The timed loops this rank ran. */
    long loops() {
        return loops;
    }

    /** The time this rank spent filling, poisoning and checking (ns). */
    long myDataNanos() {
        return myDataNanos;
    }

    /** The fill and check time summed over the ranks (ns). */
    double dataNanos() {
        return dataNanos;
    }

    /** The bytes filled, poisoned and checked, summed over the ranks. */
    double dataBytes() {
        return dataBytes;
    }
}
