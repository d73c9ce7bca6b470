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
 * move, must lie beyond the tolerance on the same side. Otherwise it is {@link Flag#NOISE}, "within noise". Where
 * neither measurement recorded a spread (nccl-tests without {@code -I 1}) the tolerance alone decides, and the
 * change says so.
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
     * One matched measurement.
     *
     * @param base   the BASE measurement
     * @param next   the NEW measurement
     * @param ratio  NEW/BASE speed
     * @param spread the combined relative spread of the two (0.2 = 20 %), NaN when neither recorded one
     * @param median NEW/BASE speed from the medians (p50), NaN when one lacks it
     * @param flag   how it is judged
     */
    public record Change(Result base, Result next, double ratio, double spread, double median, Flag flag) {

        /** True when the verdict rests on the tolerance alone (no spread recorded). */
        public boolean spreadUnknown() {
            return Double.isNaN(spread);
        }
    }

    /** Compares measurements of at least {@code minBytes}; smaller ones are latency-bound noise to many users. */
    public static Comparison of(final ResultSet base, final ResultSet next, final double tolerance,
                                final long minBytes) {
        final Set<String> baseBackends = new HashSet<>();
        base.runs().forEach(r -> baseBackends.add(r.backend()));
        final boolean across = next.runs().stream().map(Run::backend).noneMatch(baseBackends::contains)
            && (onlyNcclTests(base) || onlyNcclTests(next));
        final Map<String, Result> byKey = new LinkedHashMap<>();
        for (final Result r : next.results()) {
            if (r.measured()) {
                byKey.putIfAbsent(key(r, across), r);
            }
        }
        final List<Change> changes = new ArrayList<>();
        int onlyBase = 0;
        for (final Result b : base.results()) {
            if (!b.measured() || b.sizeBytes() < minBytes) {
                continue;
            }
            final Result n = byKey.remove(key(b, across));
            if (n == null) {
                onlyBase++;
                continue;
            }
            changes.add(judge(b, n, tolerance));
        }
        final int onlyNew = (int) byKey.values().stream().filter(r -> r.sizeBytes() >= minBytes).count();
        return new Comparison(List.copyOf(changes), onlyBase, onlyNew, tolerance, across);
    }

    /** The change from {@code b} to {@code n}, judged against the tolerance and the noise. */
    static Change judge(final Result b, final Result n, final double tolerance) {
        final boolean data = Double.isFinite(b.busBw()) && Double.isFinite(n.busBw()) && b.busBw() > 0;
        final double ratio = data ? n.busBw() / b.busBw() : b.timeUs() / n.timeUs();
        final double median = b.p50Us() > 0 && n.p50Us() > 0 ? b.p50Us() / n.p50Us() : Double.NaN;
        final double spread = Noise.combined(b, n);
        final Flag flag;
        if (ratio >= 1 - tolerance && ratio <= 1 + tolerance) {
            flag = Flag.SAME;
        } else if (!Double.isNaN(spread) && Math.abs(Math.log(ratio)) <= Math.log1p(spread)) {
            flag = Flag.NOISE;
        } else if (!Double.isNaN(median) && (ratio < 1 ? median >= 1 - tolerance : median <= 1 + tolerance)) {
            flag = Flag.NOISE;
        } else {
            flag = ratio < 1 ? Flag.REGRESSED : Flag.IMPROVED;
        }
        return new Change(b, n, ratio, spread, median, flag);
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
