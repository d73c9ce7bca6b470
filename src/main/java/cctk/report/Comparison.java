package cctk.report;

import cctk.results.NcclTests;
import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Two result sets measurement by measurement: matched on backend, world size, collective, type, operator, layout
 * and size (on all but the backend when BASE and NEW share no backend and one of them holds only nccl-tests runs,
 * so that a cctk run of backend nccl is compared with an nccl-tests baseline). The ratio is NEW/BASE of busbw (of
 * 1/time for a barrier, which moves no data), so above 1 is faster. A change is a regression or an improvement
 * only when it is beyond the tolerance and beyond the noise: the ratio must lie outside 1 ± the combined spread of
 * the two measurements ({@link Noise}), and the ratio of their medians (p50), which a few slow iterations do not
 * move, must lie beyond the tolerance on the same side, and every iteration of the slower one must be slower than
 * the median iteration of the faster one ({@link #overlap}). Otherwise it is {@link Flag#NOISE}, "within noise".
 * Where neither measurement recorded a spread (nccl-tests without {@code -I 1}) the tolerance alone decides, and
 * the change says so.
 *
 * @param changes       every matched measurement, in BASE's order
 * @param onlyBase      measurements of BASE without a match in NEW
 * @param onlyNew       measurements of NEW without a match in BASE
 * @param tolerance     the relative change that counts
 * @param acrossBackend true when BASE and NEW share no backend and were matched without it
 */
public record Comparison(List<Change> changes, int onlyBase, int onlyNew, double tolerance, boolean acrossBackend) {

    /** What a change is judged to be. */
    public enum Flag {
        SAME(""), IMPROVED("IMPROVED"), REGRESSED("REGRESSED"), NOISE("within noise");

        private final String text;

        Flag(final String text) {
            this.text = text;
        }

        /** How the flag is printed. */
        public String text() {
            return text;
        }
    }

    /**
     * One matched measurement (over the runs of each side that measured it).
     *
     * @param base     the BASE measurement (of several runs, the one nearest their median)
     * @param next     the NEW measurement (likewise)
     * @param ratio    NEW/BASE speed (of the medians over each side's runs)
     * @param spread   the combined relative spread (0.2 = 20 %): of the iterations of both, and of the runs of each
     *                 side that has several; NaN when nothing recorded one
     * @param median   NEW/BASE speed from the median iterations (p50), NaN when one lacks it
     * @param runs     how many runs of BASE and of NEW measured it ({@code {1, 1}} for a pair)
     * @param flag     how it is judged
     */
    public record Change(Result base, Result next, double ratio, double spread, double median, int[] runs,
                         Flag flag) {

        /** True when the verdict rests on the tolerance alone (no spread recorded). */
        public boolean spreadUnknown() {
            return Double.isNaN(spread);
        }
    }

    /**
     * Compares measurements of at least {@code minBytes}; smaller ones are latency-bound noise to many users. Where
     * a side holds several runs of the same measurement (a directory of repeated runs), they are its repeats: their
     * median is compared, their scatter adds to the spread, and a change must hold against every repeat.
     */
    public static Comparison of(final ResultSet base, final ResultSet next, final double tolerance,
                                final long minBytes) {
        final Set<String> baseBackends = new HashSet<>();
        base.runs().forEach(r -> baseBackends.add(r.backend()));
        final boolean across = next.runs().stream().map(Run::backend).noneMatch(baseBackends::contains)
            && (onlyNcclTests(base) || onlyNcclTests(next));
        final Map<String, List<Result>> bs = group(base, across, minBytes);
        final Map<String, List<Result>> ns = group(next, across, minBytes);
        final List<Change> changes = new ArrayList<>();
        int onlyBase = 0;
        for (final Map.Entry<String, List<Result>> e : bs.entrySet()) {
            final List<Result> n = ns.remove(e.getKey());
            if (n == null) {
                onlyBase += e.getValue().size();
            } else {
                changes.add(judge(e.getValue(), n, tolerance));
            }
        }
        final int onlyNew = ns.values().stream().mapToInt(List::size).sum();
        return new Comparison(List.copyOf(changes), onlyBase, onlyNew, tolerance, across);
    }

    /** The measured results of {@code set} of at least {@code minBytes} by key, one per run, in the set's order. */
    private static Map<String, List<Result>> group(final ResultSet set, final boolean across, final long minBytes) {
        final Map<String, List<Result>> out = new LinkedHashMap<>();
        for (final Result r : set.results()) {
            if (r.measured() && r.sizeBytes() >= minBytes) {
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
        return judge(List.of(b), List.of(n), tolerance);
    }

    /** The change from the runs {@code bs} to the runs {@code ns}, judged against the tolerance and the noise. */
    static Change judge(final List<Result> bs, final List<Result> ns, final double tolerance) {
        final boolean data = bs.stream().allMatch(Comparison::carries) && ns.stream().allMatch(Comparison::carries);
        final Result b = middle(bs, data);
        final Result n = middle(ns, data);
        final double ratio = speed(n, data) / speed(b, data);
        final double median = b.p50Us() > 0 && n.p50Us() > 0 ? b.p50Us() / n.p50Us() : Double.NaN;
        final double within = Noise.combined(b, n);
        final double runs = Math.hypot(scatter(bs, data), scatter(ns, data));
        final double spread = Double.isNaN(within) ? bs.size() > 1 || ns.size() > 1 ? runs : Double.NaN
            : Math.hypot(within, runs);
        final boolean slower = ratio < 1;
        final Flag flag;
        if (ratio >= 1 - tolerance && ratio <= 1 + tolerance) {
            flag = Flag.SAME;
        } else if (!Double.isNaN(spread) && Math.abs(Math.log(ratio)) <= Math.log1p(spread)) {
            flag = Flag.NOISE;
        } else if (!Double.isNaN(median) && (slower ? median >= 1 - tolerance : median <= 1 + tolerance)) {
            flag = Flag.NOISE;
        } else if (slower ? overlap(b, n) : overlap(n, b)) {
            flag = Flag.NOISE;
        } else if (!everyRepeat(bs, ns, data, slower)) {
            flag = Flag.NOISE;
        } else {
            flag = slower ? Flag.REGRESSED : Flag.IMPROVED;
        }
        return new Change(b, n, ratio, spread, median, new int[] {bs.size(), ns.size()}, flag);
    }

    private static boolean carries(final Result r) {
        return Double.isFinite(r.busBw()) && r.busBw() > 0;
    }

    /** Busbw, or 1/time for what moves no data. */
    private static double speed(final Result r, final boolean data) {
        return data ? r.busBw() : 1 / r.timeUs();
    }

    /** Of several runs' measurements, the one at their median speed (the lower middle of an even number). */
    private static Result middle(final List<Result> rs, final boolean data) {
        final List<Result> sorted = rs.stream().sorted(java.util.Comparator.comparingDouble(r -> speed(r, data)))
            .toList();
        return sorted.get((sorted.size() - 1) / 2);
    }

    /** How far repeated runs scatter: (fastest - slowest) / median speed; 0 for one run. */
    private static double scatter(final List<Result> rs, final boolean data) {
        if (rs.size() < 2) {
            return 0;
        }
        final double lo = rs.stream().mapToDouble(r -> speed(r, data)).min().orElse(0);
        final double hi = rs.stream().mapToDouble(r -> speed(r, data)).max().orElse(0);
        return (hi - lo) / speed(middle(rs, data), data);
    }

    /** True when every run of NEW is slower (faster) than every run of BASE: the change holds on every repeat. */
    private static boolean everyRepeat(final List<Result> bs, final List<Result> ns, final boolean data,
                                       final boolean slower) {
        final double bLo = bs.stream().mapToDouble(r -> speed(r, data)).min().orElse(0);
        final double bHi = bs.stream().mapToDouble(r -> speed(r, data)).max().orElse(0);
        return ns.stream().mapToDouble(r -> speed(r, data)).allMatch(v -> slower ? v < bLo : v > bHi);
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

    private static String key(final Result r, final boolean acrossBackend) {
        return String.join("|", acrossBackend ? "" : r.run().backend(), Integer.toString(r.run().world()),
            r.collective(), Objects.toString(r.dtype()), Objects.toString(r.op()), Boolean.toString(r.inPlace()),
            Long.toString(r.sizeBytes()));
    }
}
