package cctk.coll;

import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;

/**
 * Block p of send goes to rank p. Per-peer count n = S/W rounded down to 16 bytes; S = n·size·W (what
 * each rank sends); busbw = algbw·(W-1)/W, since 1/W of the data stays local.
 */
public final class AllToAll implements Collective {

    @Override
    public CollectiveType type() {
        return CollectiveType.ALLTOALL;
    }

    @Override
    public Layout layout(final long totalBytes, final DType type, final Group group) {
        final long count = Collective.alignedCount(totalBytes / group.world(), type.bytes());
        final long bytes = count * type.bytes() * group.world();
        return Layout.of(count, bytes, bytes, bytes, 0, 0);
    }

    @Override
    public double busBwFactor(final int world) {
        return (world - 1.0) / world;
    }

    /** Element k of the block from {@code from} to {@code to}. */
    static double block(final int from, final int to, final long k, final int seed) {
        return Pattern.data(from, 17L * to + k, seed);
    }

    @Override
    public double input(final Case c, final long index) {
        final long n = c.layout().count();
        return block(c.rank(), (int) (index / n), index % n, c.seed());
    }

    @Override
    public long checkedElements(final Case c) {
        return c.layout().count() * c.world();
    }

    @Override
    public double expected(final Case c, final long index) {
        final long n = c.layout().count();
        return block((int) (index / n), c.rank(), index % n, c.seed());
    }

    @Override
    public void run(final Communicator comm, final CommBuffer send, final CommBuffer recv, final Case c) {
        comm.allToAll(send, recv, c.layout().count(), c.type());
    }
}
