package cctk.bench;

import cctk.results.Numbers;
import cctk.results.Result;
import java.util.Arrays;

/**
 * One row's repeats as they are measured (each a vector the ranks combined, {@link PointStats}), and what the row
 * reports from them: the median repeat's figures (of an even number, the slower of the two middle ones, so a figure
 * is never flattered), the spread between repeats, the median of every repeat's first timed loop (what no re-timing
 * would have reported), the timed loops run and why loops were timed again, the wrong elements of the checked
 * repeat, and the machine's cross-core reading after its size was measured ({@link MachineWatch}).
 * <p>
 * A repeat still disturbed after its re-timings (a compile or a collection ran on some rank during every try) is
 * replaced: the block measures such a row once more after its other rows ({@link #wantsAnother}, at most
 * {@value #EXTRA} more), when the compiles the first points of a sweep set off have had time to end, and the figures
 * rest on the undisturbed repeats (on all of them only where none is). Over 145 runs on this project's 2-vCPU VM,
 * 146 of 3,727 rows had kept a disturbed repeat, 127 of them at the sweep's first size, and such a repeat read up to
 * 29x its neighbours (a 1 MiB all-gather: 244 µs a call against 8.4) and, two of three disturbed, set the figure.
 * A size measured again because the machine moved during it starts its repeats afresh ({@link #again}), its loops
 * still counted. Every rank holds the same numbers, as the combined vectors and the votes on re-timing are the same
 * on all.
 * <b>Note:</b> not threadsafe.
 */
final class RowRepeats {

    /** Repeats measured at most beyond those asked for, to replace disturbed ones. */
    static final int EXTRA = 2;

    private final int wanted;
    private final double[] means;
    private final double[] firsts;
    private final IterationStats[] stats;
    private final int[] iters;
    private final boolean[] disturbed;
    private final String across;
    private int n;
    private int attempts;
    private int jit;
    private int gc;
    private int lengthened;
    private int machine;
    /** The first measurement's first attempts are kept: the size was measured again ({@link #again}). */
    private boolean firstsKept;
    private int firstCount;
    private double crossCoreUs = Double.NaN;
    private long wrong = -1;

    /** A row of {@code repeats} repeats whose time across ranks is {@code across} ({@code max} or {@code mean}). */
    RowRepeats(final int repeats, final String across) {
        this.across = across;
        this.wanted = repeats;
        means = new double[repeats + EXTRA];
        firsts = new double[repeats + EXTRA];
        stats = new IterationStats[repeats + EXTRA];
        iters = new int[repeats + EXTRA];
        disturbed = new boolean[repeats + EXTRA];
    }

    /**
     * Adds one repeat: the combined vector of {@code length} numbers, and this rank's own part (its loops and votes,
     * the same on every rank); {@code checked}: the repeat that ran the check iterations.
     */
    void add(final double[] combined, final int length, final MeasureStep.Result mine, final boolean checked) {
        final IterationStats s = PointStats.stats(combined, length);
        means[n] = s.timeUs();
        // the first attempts of the repeats asked for: what a raw measurement would have reported
        if (!firstsKept && n < wanted) {
            firsts[n] = Double.isFinite(combined[PointStats.FIRST_MEAN]) ? combined[PointStats.FIRST_MEAN]
                : s.timeUs();
            firstCount = n + 1;
        }
        stats[n] = s;
        iters[n] = length - PointStats.SLOTS;
        disturbed[n] = mine.keptDisturbed();
        n++;
        attempts += mine.attempts();
        jit += mine.jitRetimes();
        gc += mine.gcRetimes();
        lengthened += mine.lengthened();
        if (checked) {
            wrong = PointStats.wrong(combined);
        }
    }

    /**
     * True when the row is to be measured once more: fewer of its repeats than asked for are undisturbed, and fewer
     * than {@value #EXTRA} were added to replace disturbed ones.
     */
    boolean wantsAnother() {
        return n >= wanted && n < wanted + EXTRA && n - disturbedCount() < wanted;
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
        return stats[kept()[medianIndex(kept())]];
    }

    /** Wrong elements of the checked repeat, -1 when none was checked. */
    long wrong() {
        return wrong;
    }

    /** How the row's figures were obtained, rounded as results carry them. */
    Result.Obtained obtained() {
        final int[] used = kept();
        final int median = used[medianIndex(used)];
        final double time = means[median];
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (final int i : used) {
            lo = Math.min(lo, means[i]);
            hi = Math.max(hi, means[i]);
        }
        final double spread = used.length < 2 ? Double.NaN : 100 * (hi - lo) / time;
        final int[] regular = new int[firstCount];
        Arrays.setAll(regular, i -> i);
        final double first = firsts[regular[medianIndex(regular, firsts)]];
        return new Result.Obtained(used.length, iters[median], attempts, Numbers.significant(spread),
            Numbers.significant(lo), Numbers.significant(hi), Numbers.significant(first), retimed(used.length), across,
            Numbers.significant(crossCoreUs));
    }

    /** The repeats the figures rest on: the undisturbed ones, or every one where none is. */
    private int[] kept() {
        final int[] clean = java.util.stream.IntStream.range(0, n).filter(i -> !disturbed[i]).toArray();
        return clean.length > 0 ? clean : java.util.stream.IntStream.range(0, n).toArray();
    }

    private int disturbedCount() {
        int d = 0;
        for (int i = 0; i < n; i++) {
            d += disturbed[i] ? 1 : 0;
        }
        return d;
    }

    /**
     * Why loops were timed again, or null: {@code "jit 2, gc 1, short 1, machine 1; 1 disturbed repeat left out"}
     * ("short": with more calls, as the loop at its median call filled less than half the window; "machine": every
     * repeat again, as the machine's cross-core reading moved more than 2x while the size was measured; "left out": a
     * repeat still disturbed after its re-timings, replaced by one measured after the block's other rows; "kept
     * disturbed": no undisturbed repeat was left, and the figures rest on disturbed ones).
     */
    private String retimed(final int used) {
        final int bad = disturbedCount();
        if (jit == 0 && gc == 0 && lengthened == 0 && machine == 0 && bad == 0) {
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
        if (bad > 0) {
            sb.append(sb.length() > 0 ? "; " : "").append(bad).append(bad == used && bad == n ? " kept disturbed"
                : bad == 1 ? " disturbed repeat left out" : " disturbed repeats left out");
        }
        return sb.toString();
    }

    /** Of the repeats {@code idx}, the position of the one at the median time (of an even number, the slower). */
    private int medianIndex(final int[] idx) {
        return medianIndex(idx, means);
    }

    private static int medianIndex(final int[] idx, final double[] values) {
        final Integer[] order = new Integer[idx.length];
        for (int i = 0; i < idx.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(values[idx[a]], values[idx[b]]));
        return order[idx.length / 2];
    }
}
