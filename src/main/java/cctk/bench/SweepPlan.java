package cctk.bench;

import cctk.coll.Collective;
import cctk.coll.Collectives;
import cctk.coll.Group;
import cctk.coll.Layout;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.spec.Benchmark;
import java.util.ArrayList;
import java.util.List;

/**
 * What a sweep measures, in order: every type × size × collective × operator (collectives without data, the
 * barrier, once at the end), and the buffer bytes each point needs on this rank, out of place and in place.
 * <b>Note:</b> threadsafe (immutable).
 */
final class SweepPlan {

    /** One point of the sweep: a collective with its type, operator and size (null when it carries no data). */
    record Point(Collective coll, DType type, ReduceOp op, cctk.spec.MessageSize size) {

        String describe() {
            final StringBuilder sb = new StringBuilder(coll.type().specName());
            if (type != null) {
                sb.append(' ').append(type.specName());
            }
            if (op != null) {
                sb.append(' ').append(op.specName());
            }
            if (size != null) {
                sb.append(' ').append(size.bytes(type)).append(" B");
            }
            return sb.toString();
        }

        /** S before rounding, as the spec asks (0 without data). */
        long requested() {
            return size == null ? 0 : size.bytes(type);
        }
    }

    /**
     * The memory one layout of one point takes on this rank.
     *
     * @param requested the point's S before rounding: a sweep holds every point up to some requested size
     * @param input     bytes of the send buffer, or of the one in-place buffer
     * @param output    bytes of the receive buffer (0 in place)
     */
    record Need(long requested, long input, long output) {
    }

    private final List<Point> points;
    private final List<Need> needs;

    private SweepPlan(final List<Point> points, final List<Need> needs) {
        this.points = List.copyOf(points);
        this.needs = List.copyOf(needs);
    }

    /** The plan of {@code b} on the rank {@code group} describes. */
    static SweepPlan of(final Benchmark b, final Group group) {
        final List<Point> plan = new ArrayList<>();
        for (final DType type : b.dtypes()) {
            for (final cctk.spec.MessageSize size : b.sizes()) {
                for (final var ct : b.collectives()) {
                    final Collective coll = Collectives.of(ct);
                    if (!coll.carriesData()) {
                        continue;
                    }
                    if (ct.reduces()) {
                        for (final ReduceOp op : b.ops()) {
                            plan.add(new Point(coll, type, op, size));
                        }
                    } else {
                        plan.add(new Point(coll, type, null, size));
                    }
                }
            }
        }
        for (final var ct : b.collectives()) {
            final Collective coll = Collectives.of(ct);
            if (!coll.carriesData()) {
                plan.add(new Point(coll, null, null, null));
            }
        }
        final List<Need> needs = new ArrayList<>();
        for (final Point p : plan) {
            if (p.size() == null) {
                continue;
            }
            final Layout l = p.coll().layout(p.requested(), p.type(), group);
            if (b.inPlace().runsOutOfPlace()) {
                needs.add(new Need(p.requested(), l.sendBytes(), l.recvBytes()));
            }
            if (b.inPlace().runsInPlace() && p.coll().hasInPlace()) {
                needs.add(new Need(p.requested(), l.inPlaceBytes(), 0));
            }
        }
        return new SweepPlan(plan, needs);
    }

    List<Point> points() {
        return points;
    }

    List<Need> needs() {
        return needs;
    }
}
