package cctk.bench;

import cctk.results.Numbers;
import cctk.results.Result;
import java.util.Arrays;

/**
 * One row's repeats as they are measured (each a vector the ranks combined, {@link PointStats}), and what the row
 * reports from them: the median repeat's figures (of an even number, the slower of the two middle ones, so a figure
 * is never flattered), the spread between repeats, the median of every repeat's first timed loop (what no re-timing
 * would have reported), the timed loops run and why loops were timed again, the wrong elements of the checked
 * repeat, and the machine's cross-core reading after its size was measured ({@link MachineWatch}); a size measured
 * again because the machine moved during it starts its repeats afresh ({@link #again}), its loops still counted. Every rank holds the same numbers, as the combined vectors and the votes on re-timing are the same on all.
 * <b>Note:</b> not threadsafe.
 */
final class RowRepeats {

    private final double[] means;
    private final double[] firsts;
    private final IterationStats[] stats;
    private final int[] iters;
    private final String across;
    private int n;
    private int attempts;
    private int jit;
    private int gc;
    private int lengthened;
    private int keptDisturbed;
    private int machine;
    /** The first measurement's first attempts are kept: the size was measured again ({@link #again}). */
    private boolean firstsKept;
    private double crossCoreUs = Double.NaN;
    private long wrong = -1;

    /** A row of {@code repeats} repeats whose time across ranks is {@code across} ({@code max} or {@code mean}). */
    RowRepeats(final int repeats, final String across) {
        this.across = across;
        means = new double[repeats];
        firsts = new double[repeats];
        stats = new IterationStats[repeats];
        iters = new int[repeats];
    }

    /**
     * Adds one repeat: the combined vector of {@code length} numbers, and this rank's own part (its loops and votes,
     * the same on every rank); {@code checked}: the repeat that ran the check iterations.
     */
    void add(final double[] combined, final int length, final MeasureStep.Result mine, final boolean checked) {
        final IterationStats s = PointStats.stats(combined, length);
        means[n] = s.timeUs();
        if (!firstsKept) {
            firsts[n] = Double.isFinite(combined[PointStats.FIRST_MEAN]) ? combined[PointStats.FIRST_MEAN]
                : s.timeUs();
        }
        stats[n] = s;
        iters[n] = length - PointStats.SLOTS;
        n++;
        attempts += mine.attempts();
        jit += mine.jitRetimes();
        gc += mine.gcRetimes();
        lengthened += mine.lengthened();
        keptDisturbed += mine.keptDisturbed() ? 1 : 0;
        if (checked) {
            wrong = PointStats.wrong(combined);
        }
    }

    /**
     * Forgets the repeats measured so far, to measure them again: the machine's cross-core reading moved during them
     * ({@link MachineWatch}). The loops they ran still count in the attempts, the first attempts' figure stays the
     * first measurement's, and the row says it was measured again ("machine 1").
     */
    void again() {
        machine++;
        n = 0;
        wrong = -1;
        keptDisturbed = 0;
        firstsKept = true;
    }

    /** The machine's cross-core reading (µs) taken after the row's size was measured; NaN for none. */
    void machine(final double us) {
        crossCoreUs = us;
    }

    /** The repeats added so far. */
    int count() {
        return n;
    }

    /** The figures of the median repeat: its time is the row's time, its iterations the row's min, p50, p99, cv. */
    IterationStats median() {
        return stats[medianIndex(means)];
    }

    /** Wrong elements of the checked repeat, -1 when none was checked. */
    long wrong() {
        return wrong;
    }

    /** How the row's figures were obtained, rounded as results carry them. */
    Result.Obtained obtained() {
        final int median = medianIndex(means);
        final double time = means[median];
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (int i = 0; i < n; i++) {
            lo = Math.min(lo, means[i]);
            hi = Math.max(hi, means[i]);
        }
        final double spread = n < 2 ? Double.NaN : 100 * (hi - lo) / time;
        final double first = firsts[medianIndex(firsts)];
        return new Result.Obtained(n, iters[median], attempts, Numbers.significant(spread), Numbers.significant(lo),
            Numbers.significant(hi), Numbers.significant(first), retimed(), across, Numbers.significant(crossCoreUs));
    }

    /**
     * Why loops were timed again, or null: {@code "jit 2, gc 1, short 1, machine 1; 1 kept disturbed"} ("short": with
     * more calls, as the loop at its median call filled less than half the window; "machine": every repeat again, as
     * the machine's cross-core reading moved more than 2x while the size was measured).
     */
    private String retimed() {
        if (jit == 0 && gc == 0 && lengthened == 0 && machine == 0 && keptDisturbed == 0) {
            return null;
        }
        final StringBuilder sb = new StringBuilder();
        if (jit > 0) {
            sb.append("jit ").append(jit);
        }
        if (gc > 0) {
            sb.append(sb.length() > 0 ? ", " : "").append("gc ").append(gc);
        }
        if (lengthened > 0) {
            sb.append(sb.length() > 0 ? ", " : "").append("short ").append(lengthened);
        }
        if (machine > 0) {
            sb.append(sb.length() > 0 ? ", " : "").append("machine ").append(machine);
        }
        if (keptDisturbed > 0) {
            sb.append(sb.length() > 0 ? "; " : "").append(keptDisturbed).append(" kept disturbed");
        }
        return sb.toString();
    }

    /** The index of the median of the first {@code n} values (of an even number, the larger middle one). */
    private int medianIndex(final double[] values) {
        final Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(values[a], values[b]));
        return order[n / 2];
    }
}
