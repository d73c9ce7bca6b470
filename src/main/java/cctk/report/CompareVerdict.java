package cctk.report;

import cctk.results.CrossCoreReadings;
import cctk.results.Numbers;
import cctk.results.Run;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The judgement of a comparison as a whole, over all its cells (matched measurements), which a cell by cell verdict
 * misses: a slowdown of nearly every cell that each cell's noise band hides, or cells moving beyond their noise both
 * ways, which a change of the code does not explain but a change of the machine does.
 * Cells whose rows carry the machine's reading and moved while it differed ({@link Comparison.Flag#MACHINE}) are not
 * judged: they count in no tally below.
 * <ul>
 *   <li>{@link Kind#MACHINE_CHANGED}: at least {@link #MIXED_LEAST} cells, and at least half of all, are
 *   {@link Comparison.Flag#MACHINE} (a few sizes measured in another mode leave the others to judge); or, where the
 *   rows carry no reading of their own (files before cctk read the machine after every size), some cell was flagged
 *   while the readings of the sides' runs ({@link Drift}) lie more than {@link CrossCoreReadings#CHANGED} apart; or at
 *   least {@link #MIXED_LEAST} cells regressed and as many improved beyond their noise, the fewer side at least a fifth
 *   of them, and together at least a tenth of the cells;</li>
 *   <li>{@link Kind#REGRESSED} ({@link Kind#IMPROVED}): of at least {@link #MIN_CELLS} cells, those slower (faster)
 *   by more than {@link #DEAD_BAND} outnumber the others so that a one-sided sign test gives p below
 *   {@link #ALPHA}, and the median ratio over all cells lies beyond the tolerance and beyond the noise of a whole
 *   run: where every cell has repeated runs on both sides, how far the runs of each side lie apart as wholes (their
 *   levels, {@link OutlierRuns}), combined; otherwise, as nothing measured how whole runs differ, the typical
 *   (median) cell's noise band;</li>
 *   <li>{@link Kind#NONE} otherwise.</li>
 * </ul>
 *
 * @param cells       cells compared
 * @param slower      cells slower by more than the dead band
 * @param faster      cells faster by more than the dead band
 * @param pSlower     the sign test's p for "slower" (the chance of at least {@code slower} of {@code slower +
 *                    faster} by luck)
 * @param pFaster     likewise for "faster"
 * @param medianRatio the median NEW/BASE speed ratio over all cells
 * @param regressed   cells flagged REGRESSED
 * @param improved    cells flagged IMPROVED
 * @param machine     cells not judged as the machine differed ({@link Comparison.Flag#MACHINE})
 * @param kind        the judgement
 * @param drift       the machine's cross-core readings of both sides
 */
public record CompareVerdict(int cells, int slower, int faster, double pSlower, double pFaster, double medianRatio,
                             long regressed, long improved, long machine, Kind kind, Drift drift) {

    /**
     * The machine's cross-core readings of each side's runs (rank 0's 1 MiB round trip between two cores, before the
     * warm-up and after the sweep: {@link CrossCoreReadings}), in µs; empty for a side whose runs took none (older
     * files, nccl-tests). Shared-memory cells that hand data between cores move with it, and on virtual machines
     * and two-socket nodes it changes between runs while nothing else does.
     */
    public record Drift(double[] base, double[] next) {

        /** The readings of the runs of each side. */
        static Drift of(final List<Run> base, final List<Run> next) {
            return new Drift(base.stream().flatMapToDouble(r -> Arrays.stream(CrossCoreReadings.of(r))).toArray(),
                next.stream().flatMapToDouble(r -> Arrays.stream(CrossCoreReadings.of(r))).toArray());
        }

        /** True when the medians of the sides' readings lie more than {@link CrossCoreReadings#CHANGED} apart. */
        public boolean changed() {
            return base.length > 0 && next.length > 0 && CrossCoreReadings.changed(OutlierRuns.median(base),
                OutlierRuns.median(next));
        }

        /** The readings in words: "95 µs in BASE's runs and 480 and 470 µs in NEW's". */
        String text() {
            return CrossCoreReadings.text(base) + " in BASE's runs and " + CrossCoreReadings.text(next) + " in NEW's";
        }
    }

    /** Cells within this of a ratio of 1 count neither slower nor faster. */
    public static final double DEAD_BAND = 0.02;
    /** The sign test's level. */
    public static final double ALPHA = 0.01;
    /** The fewest cells a sign test is made on. */
    public static final int MIN_CELLS = 6;
    /** The fewest cells flagged each way that can make a machine change. */
    public static final int MIXED_LEAST = 2;
    private static final double MIXED_SHARE = 0.2;
    private static final double MIXED_CELLS = 0.1;

    /** What the comparison as a whole is judged to be. */
    public enum Kind {
        /** No consistent change. */
        NONE,
        /** The whole run is slower. */
        REGRESSED,
        /** The whole run is faster. */
        IMPROVED,
        /** Cells moved beyond their noise both ways: the runs are not comparable. */
        MACHINE_CHANGED
    }

    /**
     * The judgement over {@code changes} with {@code tolerance} as the change that counts; {@code runNoise}: how far
     * whole runs of the sides lie apart (in logs), NaN when a side has a single run.
     */
    static CompareVerdict of(final List<Comparison.Change> all, final double tolerance, final double runNoise,
                             final Drift drift) {
        final List<Comparison.Change> changes = all.stream().filter(c -> c.flag() != Comparison.Flag.MACHINE)
            .toList();
        final long machine = all.size() - changes.size();
        final int slower = (int) changes.stream().filter(c -> c.ratio() < 1 - DEAD_BAND).count();
        final int faster = (int) changes.stream().filter(c -> c.ratio() > 1 + DEAD_BAND).count();
        final int n = slower + faster;
        final double pSlower = SignTest.atLeast(slower, n);
        final double pFaster = SignTest.atLeast(faster, n);
        final double median = Math.exp(OutlierRuns.median(changes.stream().mapToDouble(c -> Math.log(c.ratio()))
            .toArray()));
        final long regressed = changes.stream().filter(c -> c.flag() == Comparison.Flag.REGRESSED).count();
        final long improved = changes.stream().filter(c -> c.flag() == Comparison.Flag.IMPROVED).count();
        // rows that carry their own reading were judged cell by cell; older files only by the runs' readings
        final boolean perRow = all.stream().anyMatch(c -> Double.isFinite(c.base().how().crossCoreUs())
            && Double.isFinite(c.next().how().crossCoreUs()));
        final Kind kind;
        if (machine >= MIXED_LEAST && 2 * machine >= all.size()
            || !perRow && regressed + improved > 0 && drift.changed() || mixed(regressed, improved, changes.size())) {
            kind = Kind.MACHINE_CHANGED;
        } else if (changes.size() >= MIN_CELLS
            && Math.abs(Math.log(median)) > threshold(changes, tolerance, runNoise)) {
            kind = median < 1 && pSlower < ALPHA ? Kind.REGRESSED : median > 1 && pFaster < ALPHA ? Kind.IMPROVED
                : Kind.NONE;
        } else {
            kind = Kind.NONE;
        }
        return new CompareVerdict(changes.size(), slower, faster, pSlower, pFaster, median, regressed, improved,
            machine, kind, drift);
    }

    private static boolean mixed(final long regressed, final long improved, final int cells) {
        final long few = Math.min(regressed, improved);
        return few >= MIXED_LEAST && few >= MIXED_SHARE * (regressed + improved)
            && regressed + improved >= MIXED_CELLS * cells;
    }

    /** How far (in logs) the median ratio must lie from 1 for the whole to change (see the class). */
    private static double threshold(final List<Comparison.Change> changes, final double tolerance,
                                    final double runNoise) {
        final boolean repeated = changes.stream().allMatch(c -> c.basis() == Comparison.Basis.RUNS);
        final double noise = repeated && Double.isFinite(runNoise) ? runNoise
            : OutlierRuns.median(changes.stream().mapToDouble(c -> Math.log1p(c.spread())).toArray());
        return Math.max(Math.log1p(tolerance), noise);
    }

    /** True when the comparison as a whole fails: it regressed, or the machine changed. */
    public boolean fails() {
        return kind == Kind.REGRESSED || kind == Kind.MACHINE_CHANGED;
    }

    /** One line saying the judgement and what it rests on. */
    public String text() {
        final int within = cells - slower - faster;
        final String counts = slower + " of " + cells + " cells slower, " + faster + " faster, " + within
            + " within ±" + Numbers.fixed(DEAD_BAND * 100, 0) + "%";
        final String median = "median new/base " + Numbers.fixed(medianRatio, 2) + "x";
        final String readings = (machine == 0 ? "" : "; " + machine + " cell(s) not judged, as the machine's"
            + " 1 MiB round trip between two cores, read with them, differed more than "
            + Numbers.plain(CrossCoreReadings.CHANGED) + "x") + (drift.changed() ? "; the machine's 1 MiB round trip"
            + " between two cores took " + drift.text() : "");
        return switch (kind) {
            case MACHINE_CHANGED -> machine >= MIXED_LEAST ? "the machine changed: " + machine + " cells moved while"
                + " the machine's 1 MiB round trip between two cores, read with each of them, differed more than "
                + Numbers.plain(CrossCoreReadings.CHANGED) + "x between the sides (" + drift.text() + " before and"
                + " after the sweeps): the runs are not comparable; rerun both sides on the same, quiet machine"
                : drift.changed() ? "the machine changed: a 1 MiB round trip between two cores"
                + " (rank 0's reading before and after each sweep) took " + drift.text() + ", more than "
                + Numbers.plain(CrossCoreReadings.CHANGED) + "x apart, and " + (improved + regressed) + " cells moved"
                + " beyond noise (" + improved + " faster, " + regressed + " slower), with the machine or the code:"
                + " the runs are not comparable; rerun both sides on the same, quiet machine"
                : "the machine changed (" + improved + " faster, " + regressed + " slower beyond"
                + " noise): the runs are not comparable; rerun both sides on the same, quiet machine";
            case REGRESSED -> counts + ": the whole run regressed (sign test p=" + p(pSlower) + ", " + median + ")"
                + readings;
            case IMPROVED -> counts + ": the whole run improved (sign test p=" + p(pFaster) + ", " + median + ")"
                + readings;
            case NONE -> cells < MIN_CELLS ? counts + ": too few cells for a sign test over the whole run" + readings
                : counts + ": no change of the whole run beyond the tolerance and the noise (sign test p="
                + p(Math.min(pSlower, pFaster)) + ", " + median + ")" + readings;
        };
    }

    private static String p(final double p) {
        return p >= 0.001 ? Numbers.fixed(p, 3) : String.format(Locale.ROOT, "%.1e", p);
    }
}
