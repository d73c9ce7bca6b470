package cctk.coll;

import cctk.comm.CollectiveType;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;

/**
 * recv = op over ranks of send[rank·n ..]. Per-rank count n = S/W rounded down to 16 bytes; S = n·size·W
 * (the whole input); busbw = algbw·(W-1)/W. In place, recv is send's slice at rank·n.
 */
public final class ReduceScatter implements Collective {

    @Override
    public CollectiveType type() {
        return CollectiveType.REDUCE_SCATTER;
    }

    @Override
    public Layout layout(final long totalBytes, final DType type, final Group group) {
        final long count = Collective.alignedCount(totalBytes / group.world(), type.bytes());
        final long recvBytes = count * type.bytes();
        final long sendBytes = recvBytes * group.world();
        return Layout.of(count, sendBytes, sendBytes, recvBytes, 0, group.rank() * recvBytes);
    }

    @Override
    public double busBwFactor(final int world) {
        return (world - 1.0) / world;
    }

    /** Block s of send goes into rank s's result: origin s. */
    @Override
    public Blocks sendBlocks(final Case c) {
        return Blocks.repeat(c.world(), c.layout().count(), s -> s);
    }

    @Override
    public Blocks recvBlocks(final Case c) {
        return Blocks.one(c.layout().count(), c.rank());
    }

    @Override
    public long origins(final int world) {
        return world;
    }

    @Override
    public void run(final Communicator comm, final CommBuffer send, final CommBuffer recv, final Case c) {
        comm.reduceScatter(send, recv, c.layout().count(), c.type(), c.op());
    }
}
