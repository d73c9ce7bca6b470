package cctk.bench;

import cctk.coll.Case;
import cctk.coll.Collective;
import cctk.coll.Group;
import cctk.coll.Layout;
import cctk.comm.Communicator;
import cctk.results.Result;
import cctk.results.Run;
import cctk.spec.Benchmark;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows one point of the plan makes: out of place and in place, as the spec asks, each with its call (layout and
 * case) and either the reason it cannot be measured (the backend does not support it, the size rounds to nothing,
 * the buffers do not hold it) or its repeats as they are measured.
 * <b>Note:</b> threadsafe (no state); the rows it makes are not.
 */
final class PointRows {

    /**
     * One row in the making.
     *
     * @param point   the point of the plan
     * @param c       the call's case (its layout)
     * @param inPlace the one-buffer layout
     * @param key     what the row's results share
     * @param skipped the row as skipped, with its reason; null when it is measured
     * @param repeats its repeats so far; null when skipped
     */
    record Row(SweepPlan.Point point, Case c, boolean inPlace, RowKey key, Result skipped, RowRepeats repeats) {

        /** The row's result: its reason, or its median repeat with algbw and busbw, in {@code run}. */
        Result result(final Run run) {
            if (skipped != null) {
                return skipped;
            }
            final IterationStats s = repeats.median();
            final double algBw = c.layout().sizeBytes() / s.timeUs() / 1e3;
            return key.measured(run, inPlace, s, algBw, algBw * point.coll().busBwFactor(c.world()), repeats.wrong(),
                repeats.obtained());
        }
    }

    private PointRows() {
    }

    /** The rows of {@code p} on this rank, each to be measured {@code repeats} times. */
    static List<Row> of(final SweepPlan.Point p, final Group group, final int repeats, final Benchmark b,
                        final Communicator comm, final SweepBuffers buffers, final Run run) {
        final Collective coll = p.coll();
        final long requested = p.requested();
        final Layout layout = coll.carriesData() ? coll.layout(requested, p.type(), group)
            : Layout.of(0, 0, 0, 0, 0, 0);
        final int root = coll.rooted() ? b.root() : -1;
        final Case c = new Case(p.type(), p.op(), comm.size(), comm.rank(), Math.max(root, 0), 0, layout);
        final RowKey key = new RowKey(coll.type().specName(), p.type() == null ? null : p.type().specName(),
            p.op() == null ? null : p.op().specName(), root, layout.sizeBytes(), layout.count());
        final List<Row> rows = new ArrayList<>();
        if (!coll.carriesData() || b.inPlace().runsOutOfPlace()) {
            rows.add(row(p, c, false, key, skipReason(coll, c, false, key, requested, comm, buffers, run), repeats,
                b));
        }
        if (coll.carriesData() && b.inPlace().runsInPlace()) {
            final Result none = coll.hasInPlace() ? skipReason(coll, c, true, key, requested, comm, buffers, run)
                : key.skipped(run, true, coll.type().specName() + " has no in-place form");
            rows.add(row(p, c, true, key, none, repeats, b));
        }
        return rows;
    }

    /** The line of point {@code p}: its measurements among {@code rows}, in their order, as rows of {@code run}. */
    static cctk.results.Line line(final SweepPlan.Point p, final List<Row> rows, final cctk.results.Run run) {
        final List<Result> ms = new java.util.ArrayList<>();
        for (final Row row : rows) {
            if (row.point() == p) {
                ms.add(row.result(run));
            }
        }
        return new cctk.results.Line(p.coll().type().title(), p.requested(), p.type() == null ? 1
            : p.type().bytes(), ms);
    }

    private static Row row(final SweepPlan.Point p, final Case c, final boolean inPlace, final RowKey key,
                           final Result skipped, final int repeats, final Benchmark b) {
        return new Row(p, c, inPlace, key, skipped, skipped == null ? new RowRepeats(repeats,
            b.timeAcrossRanks().specName()) : null);
    }

    /** Why this row cannot be measured, as a skipped result; null when it can. */
    private static Result skipReason(final Collective coll, final Case c, final boolean inPlace, final RowKey row,
                                     final long requested, final Communicator comm, final SweepBuffers buffers,
                                     final Run run) {
        final String unsupported = comm.unsupported(coll.type(), c.type(), c.op(), inPlace);
        if (unsupported != null) {
            return row.skipped(run, inPlace, unsupported);
        }
        if (coll.carriesData() && c.layout().sizeBytes() == 0) {
            return row.skipped(run, inPlace, "the size rounds down to 0 bytes per rank for " + c.world() + " ranks");
        }
        if (coll.carriesData() && !buffers.fits(requested)) {
            return row.skipped(run, inPlace, buffers.reason());
        }
        return null;
    }
}
