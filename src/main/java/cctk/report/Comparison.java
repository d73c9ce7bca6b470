package cctk.report;

import cctk.results.CrossCoreReadings;
import cctk.results.nccltests.NcclTests;
import cctk.results.Numbers;
import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Two result sets measurement by measurement (cell by cell): matched on backend, world size, collective, type,
 * operator, layout and size (on all but the backend when BASE and NEW share no backend and one of them holds only
 * nccl-tests runs, so that a cctk run of backend nccl is compared with an nccl-tests baseline). The ratio is NEW/BASE
 * speed, judged on time (BASE's time over NEW's), so above 1 is faster and latency-bound sizes, whose busbw rounds to
 * nothing, are judged as well as large ones; for sizes that move data it equals the ratio of busbw.
 * <p>
 * A cell whose rows were measured in both of the machine's modes is first compared on the rows of the mode both sides
 * hold ({@link SameMode}), with a note. Where a side holds 3 or more runs of a measurement, a run far from the others
 * across most cells is then left out ({@link OutlierRuns}), with a note. Each side's figure is the median of its runs,
 * and its noise comes from the best evidence it holds ({@link Noise}, {@link Basis}); the cell's noise band is the root
 * of the sum of the squares of both sides'. A cell is REGRESSED or IMPROVED only when the ratio lies beyond the
 * tolerance and beyond the band, the ratio of the median iterations (p50) agrees, the slower side's fastest iteration
 * is slower than the faster side's median one ({@link #overlap}), and every run of NEW lies beyond every run of BASE;
 * otherwise it is {@link Flag#NOISE}, "within noise". A cell beyond the tolerance whose rows were measured with the
 * machine's cross-core readings more than 2x apart on the two sides is {@link Flag#MACHINE} and not judged. The
 * comparison as a whole is judged too ({@link CompareVerdict}).
 *
 * @param changes       every matched measurement, in BASE's order
 * @param onlyBase      measurements of BASE without a match in NEW
 * @param onlyNew       measurements of NEW without a match in BASE
 * @param tolerance     the relative change that counts
 * @param acrossBackend true when BASE and NEW share no backend and were matched without it
 * @param notes         what was left out and why (outlier runs), to be printed
 * @param whole         the judgement of the comparison as a whole
 */
public record Comparison(List<Change> changes, int onlyBase, int onlyNew, double tolerance, boolean acrossBackend,
                         List<String> notes, CompareVerdict whole) {

    /** What a change is judged to be. */
    public enum Flag {
        SAME(""), IMPROVED("IMPROVED"), REGRESSED("REGRESSED"), NOISE("within noise"),
        /**
         * Moved beyond the tolerance while the machine's cross-core readings taken with the cell on the two sides
         * (each row's, {@link Result.Obtained#crossCoreUs}) lie more than {@link CrossCoreReadings#CHANGED} apart:
         * the machine, not only the code, differed, and the cell is not judged.
         */
        MACHINE("machine moved");

        private final String text;

        Flag(final String text) {
            this.text = text;
        }

        /** How the flag is printed. */
        public String text() {
            return text;
        }
    }

    /** What a cell's noise band rests on, firmest first; a cell takes the weaker of its two sides'. */
    public enum Basis {
        /** Several runs of the measurement: their scatter, and the spread between repeats within them. */
        RUNS("from repeated runs (their scatter and the spread between repeats, at least "
            + percent(Noise.RUNS_FLOOR) + " a side with 3 runs or more, " + percent(Noise.TWO_RUNS_FLOOR) + " with 2)"),
        /** One run whose row is the median of repeats: the spread between the repeats, widened. */
        REPEATS("from a single run's spread between repeats (times " + Numbers.plain(Noise.REPEATS_WIDENING)
            + ", at least "
            + percent(Noise.REPEATS_FLOOR) + " a side)"),
        /** One run without repeats: the spread between its iterations, with a wide floor. */
        ITERATIONS("from a single run without repeats (the spread between its iterations, at least "
            + percent(Noise.SINGLE_FLOOR) + " a side)");

        private final String text;

        Basis(final String text) {
            this.text = text;
        }

        /** What it is, for a line that counts the cells resting on it: "from repeated runs (...)". */
        public String text() {
            return text;
        }

        private static String percent(final double fraction) {
            return Math.round(fraction * 100) + "%";
        }
    }

    /**
     * One matched measurement (over the runs of each side that measured it).
     *
     * @param base   the BASE measurement (of several runs, the one at their median time; the slower middle one of
     *               an even number)
     * @param next   the NEW measurement (likewise)
     * @param ratio  NEW/BASE speed: BASE's time over NEW's
     * @param spread the noise band of the ratio (0.2 = ±20 %), as the class says
     * @param median NEW/BASE speed from the median iterations (p50), NaN when one lacks it
     * @param runs   how many runs of BASE and of NEW measured it ({@code {1, 1}} for a pair), outliers and rows of
     *               the other machine mode ({@link SameMode}) included
     * @param flag   how it is judged
     * @param basis  what the noise band rests on
     */
    public record Change(Result base, Result next, double ratio, double spread, double median, int[] runs,
                         Flag flag, Basis basis) {
    }

    /**
     * Compares measurements of at least {@code minBytes}. Where a side holds several runs of the same measurement
     * (a directory of repeated runs), they are its repeats: an outlier among 3 or more is left out, their median is
     * compared, their scatter is their noise, and a change must hold against every run.
     */
    public static Comparison of(final ResultSet base, final ResultSet next, final double tolerance,
                                final long minBytes) {
        final Set<String> baseBackends = new HashSet<>();
        base.runs().forEach(r -> baseBackends.add(r.backend()));
        final boolean across = next.runs().stream().map(Run::backend).noneMatch(baseBackends::contains)
            && (onlyNcclTests(base) || onlyNcclTests(next));
        final Map<String, List<Result>> bs = group(base, across, minBytes);
        final Map<String, List<Result>> ns = group(next, across, minBytes);
        final List<String> notes = new ArrayList<>();
        final SameMode.Sides same = SameMode.match(bs, ns, notes);
        final Map<String, List<Result>> bKept = OutlierRuns.leaveOut(same.base(), "BASE", notes);
        final Map<String, List<Result>> nKept = OutlierRuns.leaveOut(same.next(), "NEW", notes);
        final List<Change> changes = new ArrayList<>();
        int onlyBase = 0;
        for (final Map.Entry<String, List<Result>> e : bs.entrySet()) {
            final List<Result> n = ns.get(e.getKey());
            if (n == null) {
                onlyBase += e.getValue().size();
            } else {
                changes.add(judge(bKept.get(e.getKey()), nKept.get(e.getKey()),
                    new int[] {e.getValue().size(), n.size()}, tolerance));
            }
        }
        final int onlyNew = ns.entrySet().stream().filter(e -> !bs.containsKey(e.getKey()))
            .mapToInt(e -> e.getValue().size()).sum();
        final double runNoise = Math.hypot(OutlierRuns.levelRange(bKept), OutlierRuns.levelRange(nKept));
        final List<Change> judged = loneCellsWithinNoise(changes);
        return new Comparison(List.copyOf(judged), onlyBase, onlyNew, tolerance, across, List.copyOf(notes),
            CompareVerdict.of(judged, tolerance, runNoise, CompareVerdict.Drift.of(base.runs(), next.runs())));
    }

    /**
     * Single runs cannot show how whole runs differ, and on a shared machine they differ by more than the repeats
     * inside one run: measured on this project's 2-vCPU VM, single cells of back-to-back runs of one spec moved up to
     * 1.6-fold beyond a ±21 % band. So a cell judged on a single run per side (not {@link Basis#RUNS}) is flagged
     * only when its change agrees with a tendency of the whole comparison (the sign test over all cells gives p below
     * {@value #LONE_ALPHA} in its direction), or reaches {@value #LONE_FACTOR}x either way; else it is a lone cell
     * within the noise between runs. Cells judged on repeated runs keep their flags, and so do the cells of a
     * comparison too small for a sign test ({@link CompareVerdict#MIN_CELLS}).
     */
    private static List<Change> loneCellsWithinNoise(final List<Change> changes) {
        if (changes.size() < CompareVerdict.MIN_CELLS) {
            return changes; // too few cells to tell a lone one from a tendency
        }
        final int slower = (int) changes.stream().filter(c -> c.flag() != Flag.MACHINE
            && c.ratio() < 1 - CompareVerdict.DEAD_BAND).count();
        final int faster = (int) changes.stream().filter(c -> c.flag() != Flag.MACHINE
            && c.ratio() > 1 + CompareVerdict.DEAD_BAND).count();
        final boolean slowerTrend = SignTest.atLeast(slower, slower + faster) < LONE_ALPHA;
        final boolean fasterTrend = SignTest.atLeast(faster, slower + faster) < LONE_ALPHA;
        final List<Change> out = new ArrayList<>(changes.size());
        for (final Change c : changes) {
            final boolean flagged = c.flag() == Flag.REGRESSED || c.flag() == Flag.IMPROVED;
            final boolean trend = c.flag() == Flag.REGRESSED ? slowerTrend : fasterTrend;
            final boolean large = c.ratio() >= LONE_FACTOR || c.ratio() <= 1 / LONE_FACTOR;
            out.add(flagged && c.basis() != Basis.RUNS && !trend && !large ? new Change(c.base(), c.next(), c.ratio(),
                c.spread(), c.median(), c.runs(), Flag.NOISE, c.basis()) : c);
        }
        return out;
    }

    /** The sign test's level below which the whole comparison has a tendency that single-run cells may follow. */
    static final double LONE_ALPHA = 0.05;
    /**
     * A single-run cell that moved this far (either way) is flagged without a tendency of the whole: beyond the 1.6x
     * that back-to-back runs of one spec showed in single cells on a shared 2-vCPU VM.
     */
    static final double LONE_FACTOR = 1.75;

    /** The measured results of {@code set} of at least {@code minBytes} by key, one per run, in the set's order. */
    private static Map<String, List<Result>> group(final ResultSet set, final boolean across, final long minBytes) {
        final Map<String, List<Result>> out = new LinkedHashMap<>();
        for (final Result r : set.results()) {
            if (r.measured() && r.timeUs() > 0 && r.sizeBytes() >= minBytes) {
                final List<Result> same = out.computeIfAbsent(key(r, across), k -> new ArrayList<>());
                if (same.stream().noneMatch(o -> o.run() == r.run())) {
                    same.add(r);
                }
            }
        }
        return out;
    }

    /** The change from {@code b} to {@code n} (one run each), judged against the tolerance and the noise. */
    static Change judge(final Result b, final Result n, final double tolerance) {
        return judge(List.of(b), List.of(n), new int[] {1, 1}, tolerance);
    }

    /** The change from the runs {@code bs} to the runs {@code ns}, judged against the tolerance and the noise. */
    static Change judge(final List<Result> bs, final List<Result> ns, final int[] runs, final double tolerance) {
        final Result b = middle(bs);
        final Result n = middle(ns);
        final double ratio = b.timeUs() / n.timeUs();
        final double median = b.p50Us() > 0 && n.p50Us() > 0 ? b.p50Us() / n.p50Us() : Double.NaN;
        final double spread = Math.hypot(Noise.side(bs), Noise.side(ns));
        final Basis basis = Noise.basis(bs).compareTo(Noise.basis(ns)) >= 0 ? Noise.basis(bs) : Noise.basis(ns);
        final boolean slower = ratio < 1;
        final Flag flag;
        if (ratio >= 1 - tolerance && ratio <= 1 + tolerance) {
            flag = Flag.SAME;
        } else if (CrossCoreReadings.changed(machine(bs), machine(ns))) {
            flag = Flag.MACHINE;
        } else if (Math.abs(Math.log(ratio)) <= Math.log1p(spread)) {
            flag = Flag.NOISE;
        } else if (!Double.isNaN(median) && (slower ? median >= 1 - tolerance : median <= 1 + tolerance)) {
            flag = Flag.NOISE;
        } else if (slower ? overlap(b, n) : overlap(n, b)) {
            flag = Flag.NOISE;
        } else if (!everyRun(bs, ns, slower)) {
            flag = Flag.NOISE;
        } else {
            flag = slower ? Flag.REGRESSED : Flag.IMPROVED;
        }
        return new Change(b, n, ratio, spread, median, runs.clone(), flag, basis);
    }

    /**
     * The machine's cross-core reading with which one side's runs measured a cell: the median of their rows' readings,
     * NaN where none carries one.
     */
    static double machine(final List<Result> rs) {
        return OutlierRuns.median(rs.stream().mapToDouble(r -> r.how().crossCoreUs()).filter(Double::isFinite)
            .toArray());
    }

    /** Of several runs' measurements, the one at their median time (the slower middle one of an even number). */
    private static Result middle(final List<Result> rs) {
        final List<Result> sorted = rs.stream().sorted(Comparator.comparingDouble(Result::timeUs).reversed())
            .toList();
        return sorted.get((sorted.size() - 1) / 2);
    }

    /** True when every run of NEW is slower (faster) than every run of BASE: the change holds on every run. */
    private static boolean everyRun(final List<Result> bs, final List<Result> ns, final boolean slower) {
        final double bLo = bs.stream().mapToDouble(Result::timeUs).min().orElse(0);
        final double bHi = bs.stream().mapToDouble(Result::timeUs).max().orElse(0);
        return ns.stream().mapToDouble(Result::timeUs).allMatch(t -> slower ? t > bHi : t < bLo);
    }

    /**
     * True when the iterations of {@code slower} (the one the ratio calls slower) do not lie clearly above those of
     * {@code faster}: its fastest iteration is not slower than {@code faster}'s median. Were both alike, each
     * iteration of {@code slower} would be slower than that median with a chance of one half, all n of them with
     * 2^-n (1 in 1024 for 10 iterations): a sign test on what the files record. False when either lacks the figures.
     */
    static boolean overlap(final Result faster, final Result slower) {
        return faster.p50Us() > 0 && slower.minUs() > 0 && slower.minUs() <= faster.p50Us();
    }

    private static boolean onlyNcclTests(final ResultSet set) {
        return !set.runs().isEmpty() && set.runs().stream().allMatch(r -> NcclTests.BACKEND.equals(r.backend()));
    }

    /** How many changes carry a flag. */
    public long count(final Flag flag) {
        return changes.stream().filter(c -> c.flag() == flag).count();
    }

    /** How many changes rest on a basis. */
    public long count(final Basis basis) {
        return changes.stream().filter(c -> c.basis() == basis).count();
    }

    /** True when the comparison fails: a cell regressed or the whole did, and the machine did not change. */
    public boolean regressed() {
        return whole.kind() != CompareVerdict.Kind.MACHINE_CHANGED
            && (count(Flag.REGRESSED) > 0 || whole.kind() == CompareVerdict.Kind.REGRESSED);
    }

    private static String key(final Result r, final boolean acrossBackend) {
        return String.join("|", acrossBackend ? "" : r.run().backend(), Integer.toString(r.run().world()),
            r.collective(), Objects.toString(r.dtype()), Objects.toString(r.op()), Boolean.toString(r.inPlace()),
            Long.toString(r.sizeBytes()));
    }
}
