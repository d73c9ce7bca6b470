package cctk.coll;

import cctk.comm.CollectiveType;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;

/**
 * recv[r·n ..] = send of rank r. Per-rank count n = S/W rounded down to 16 bytes; S = n·size·W (the
 * gathered buffer); busbw = algbw·(W-1)/W. In place, send is recv's slice at rank·n.
 */
public final class AllGather implements Collective {

    @Override
    public CollectiveType type() {
        return CollectiveType.ALL_GATHER;
    }

    @Override
    public Layout layout(final long totalBytes, final DType type, final Group group) {
        final long count = Collective.alignedCount(totalBytes / group.world(), type.bytes());
        final long sendBytes = count * type.bytes();
        final long recvBytes = sendBytes * group.world();
        return Layout.of(count, recvBytes, sendBytes, recvBytes, group.rank() * sendBytes, 0);
    }

    @Override
    public double busBwFactor(final int world) {
        return (world - 1.0) / world;
    }

    @Override
    public Blocks sendBlocks(final Case c) {
        return Blocks.one(c.layout().count(), c.rank());
    }

    @Override
    public Blocks recvBlocks(final Case c) {
        return Blocks.repeat(c.world(), c.layout().count(), q -> q);
    }

    @Override
    public long origins(final int world) {
        return world;
    }

    @Override
    public void run(final Communicator comm, final CommBuffer send, final CommBuffer recv, final Case c) {
        comm.allGather(send, recv, c.layout().count(), c.type());
    }
}
