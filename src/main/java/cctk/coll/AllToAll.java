package cctk.coll;

import cctk.comm.CollectiveType;
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

    /** The origin of the block that {@code from} sends to {@code to}: one per (sender, receiver) pair. */
    static long origin(final int world, final int from, final int to) {
        return (long) from * world + to;
    }

    @Override
    public Blocks sendBlocks(final Case c) {
        return Blocks.repeat(c.world(), c.layout().count(), p -> origin(c.world(), c.rank(), p));
    }

    @Override
    public Blocks recvBlocks(final Case c) {
        return Blocks.repeat(c.world(), c.layout().count(), q -> origin(c.world(), q, c.rank()));
    }

    @Override
    public long origins(final int world) {
        return (long) world * world;
    }

    @Override
    public void run(final Communicator comm, final CommBuffer send, final CommBuffer recv, final Case c) {
        comm.allToAll(send, recv, c.layout().count(), c.type());
    }
}
