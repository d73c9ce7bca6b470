package cctk.coll;

import cctk.comm.CollectiveType;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;

/** recv = op over ranks of send. S = count·size; busbw = algbw·2(W-1)/W. */
public final class AllReduce implements Collective {

    @Override
    public CollectiveType type() {
        return CollectiveType.ALL_REDUCE;
    }

    @Override
    public Layout layout(final long totalBytes, final DType type, final Group group) {
        return Layout.wholeBuffer(totalBytes, type);
    }

    @Override
    public double busBwFactor(final int world) {
        return 2.0 * (world - 1) / world;
    }

    @Override
    public Blocks sendBlocks(final Case c) {
        return Blocks.one(c.layout().count(), 0);
    }

    @Override
    public Blocks recvBlocks(final Case c) {
        return Blocks.one(c.layout().count(), 0);
    }

    @Override
    public long origins(final int world) {
        return 1;
    }

    @Override
    public void run(final Communicator comm, final CommBuffer send, final CommBuffer recv, final Case c) {
        comm.allReduce(send, recv, c.layout().count(), c.type(), c.op());
    }
}
