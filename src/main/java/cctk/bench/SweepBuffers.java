package cctk.bench;

import cctk.CctkException;
import cctk.coll.Layout;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import java.util.List;
import java.util.TreeSet;

/**
 * The sweep's memory, as nccl-tests holds it: two buffers allocated once, before the first point, at the largest
 * layout the plan needs on this rank (input: the largest send buffer or in-place buffer; output: the largest
 * receive buffer), and a slice of them for every point; {@link #close} gives them back. When they do not fit on
 * some rank, the plan's smaller sizes are tried, largest first; the ranks agree on the largest size every one of
 * them holds, and points above it are skipped with the reason of the rank that could not allocate.
 * <b>Note:</b> not threadsafe: the sweep's thread.
 */
final class SweepBuffers implements AutoCloseable {

    private final Communicator comm;
    private CommBuffer input;
    private CommBuffer output;
    /** Points up to this requested size fit on every rank; -1 when none does. */
    private long limit = -1;
    /** Why larger points do not fit, as rank 0 reports it ("rank 1: ..."), or null when all do. */
    private String reason;

    private SweepBuffers(final Communicator comm) {
        this.comm = comm;
    }

    /**
     * Allocates the buffers of {@code plan} on every rank (a collective: every rank calls it): {@code step} agrees
     * on what fits, {@code exchange} brings the failing rank's reason to rank 0.
     */
    static SweepBuffers allocate(final Communicator comm, final SweepPlan plan, final MeasureStep step,
                                 final RankExchange exchange) {
        final SweepBuffers b = new SweepBuffers(comm);
        final long[] sizes = new TreeSet<>(plan.needs().stream().map(SweepPlan.Need::requested).toList())
            .descendingSet().stream().mapToLong(Long::longValue).toArray();
        int mine = sizes.length;
        String why = null;
        for (int i = 0; i < sizes.length && mine == sizes.length; i++) {
            final String failed = b.tryAllocate(plan.needs(), sizes[i]);
            if (failed == null) {
                mine = i;
            } else if (why == null) {
                why = failed;
            }
        }
        final int agreed = step.maxOverRanks(mine);
        if (agreed < sizes.length) {
            b.limit = sizes[agreed];
        }
        if (agreed > 0) {
            final int failing = step.firstFailingRank(mine == agreed);
            final String said = exchange.fromRank(failing, "alloc", mine == agreed ? why : null);
            b.reason = "rank " + failing + ": " + said;
        }
        return b;
    }

    /** Allocates for every need up to {@code upTo} requested bytes; the failure's text, or null when it fit. */
    private String tryAllocate(final List<SweepPlan.Need> needs, final long upTo) {
        long in = 0;
        long out = 0;
        for (final SweepPlan.Need n : needs) {
            if (n.requested() <= upTo) {
                in = Math.max(in, n.input());
                out = Math.max(out, n.output());
            }
        }
        try {
            input = comm.allocate(Math.max(1, in));
            output = comm.allocate(Math.max(1, out));
            return null;
        } catch (final OutOfMemoryError e) {
            close();
            return "out of memory allocating " + in + " + " + out + " bytes";
        } catch (final CctkException e) {
            close();
            return e.getMessage();
        }
    }

    /** Whether a point of {@code requested} bytes fits on every rank (the same answer on every rank). */
    boolean fits(final long requested) {
        return requested <= limit;
    }

    /** Why a point that does not {@link #fit} is skipped. */
    String reason() {
        return reason;
    }

    /**
     * {send, recv} of one layout: slices of input and output, or two slices of input in place; send is recv when
     * both cover the same bytes, so backends can test identity.
     */
    CommBuffer[] slices(final Layout l, final boolean inPlace) {
        return slices(input, output, l, inPlace);
    }

    /** {@link #slices(Layout, boolean)} of given buffers. */
    static CommBuffer[] slices(final CommBuffer input, final CommBuffer output, final Layout l, final boolean inPlace) {
        if (!inPlace) {
            return new CommBuffer[] {input.slice(0, l.sendBytes()), output.slice(0, l.recvBytes())};
        }
        final CommBuffer send = input.slice(l.inPlaceSendOffset(), l.sendBytes());
        if (l.inPlaceSendOffset() == l.inPlaceRecvOffset() && l.sendBytes() == l.recvBytes()) {
            return new CommBuffer[] {send, send};
        }
        return new CommBuffer[] {send, input.slice(l.inPlaceRecvOffset(), l.recvBytes())};
    }

    /** Gives the memory back; idempotent. */
    @Override
    public void close() {
        if (input != null) {
            comm.free(input);
            input = null;
        }
        if (output != null) {
            comm.free(output);
            output = null;
        }
    }
}
