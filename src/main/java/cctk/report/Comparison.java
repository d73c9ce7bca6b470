package cctk.report;

import cctk.results.Result;
import cctk.results.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Two result sets measurement by measurement: matched on backend, world size, collective, type, operator, layout
 * and size. The ratio is NEW/BASE of busbw (of 1/time for a barrier, which moves no data), so above 1 is faster;
 * a ratio below 1 - tolerance is a regression, above 1 + tolerance an improvement.
 *
 * @param changes   every matched measurement, in BASE's order
 * @param onlyBase  measurements of BASE without a match in NEW
 * @param onlyNew   measurements of NEW without a match in BASE
 * @param tolerance the relative change that counts
 */
public record Comparison(List<Change> changes, int onlyBase, int onlyNew, double tolerance) {

    /** What a change is judged to be. */
    public enum Flag { SAME, IMPROVED, REGRESSED }

    /**
     * One matched measurement.
     *
     * @param base  the BASE measurement
     * @param next  the NEW measurement
     * @param ratio NEW/BASE speed
     * @param flag  how it is judged
     */
    public record Change(Result base, Result next, double ratio, Flag flag) {
    }

    /** Compares measurements of at least {@code minBytes}; smaller ones are latency-bound noise to many users. */
    public static Comparison of(final ResultSet base, final ResultSet next, final double tolerance,
                                final long minBytes) {
        final Map<String, Result> byKey = new LinkedHashMap<>();
        for (final Result r : next.results()) {
            if (r.measured()) {
                byKey.putIfAbsent(key(r), r);
            }
        }
        final List<Change> changes = new ArrayList<>();
        int onlyBase = 0;
        for (final Result b : base.results()) {
            if (!b.measured() || b.sizeBytes() < minBytes) {
                continue;
            }
            final Result n = byKey.remove(key(b));
            if (n == null) {
                onlyBase++;
                continue;
            }
            final boolean data = Double.isFinite(b.busBw()) && Double.isFinite(n.busBw()) && b.busBw() > 0;
            final double ratio = data ? n.busBw() / b.busBw() : b.timeUs() / n.timeUs();
            final Flag flag = ratio < 1 - tolerance ? Flag.REGRESSED : ratio > 1 + tolerance ? Flag.IMPROVED
                : Flag.SAME;
            changes.add(new Change(b, n, ratio, flag));
        }
        final int onlyNew = (int) byKey.values().stream().filter(r -> r.sizeBytes() >= minBytes).count();
        return new Comparison(List.copyOf(changes), onlyBase, onlyNew, tolerance);
    }

    /** How many changes carry a flag. */
    public long count(final Flag flag) {
        return changes.stream().filter(c -> c.flag() == flag).count();
    }

    private static String key(final Result r) {
        return String.join("|", r.run().backend(), Integer.toString(r.run().world()), r.collective(),
            Objects.toString(r.dtype()), Objects.toString(r.op()), Boolean.toString(r.inPlace()),
            Long.toString(r.sizeBytes()));
    }
}
