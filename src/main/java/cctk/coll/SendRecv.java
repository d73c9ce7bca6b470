package cctk.coll;

import cctk.comm.CollectiveType;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;

/** The nccl-tests ring: send to rank+1, receive from rank-1. S = count·size; busbw = algbw. */
public final class SendRecv implements Collective {

    @Override
    public CollectiveType type() {
        return CollectiveType.SENDRECV;
    }

    @Override
    public Layout layout(final long totalBytes, final DType type, final Group group) {
        return Layout.wholeBuffer(totalBytes, type);
    }

    @Override
    public double busBwFactor(final int world) {
        return 1.0;
    }

    @Override
    public Blocks sendBlocks(final Case c) {
        return Blocks.one(c.layout().count(), c.rank());
    }

    @Override
    public Blocks recvBlocks(final Case c) {
        return Blocks.one(c.layout().count(), Math.floorMod(c.rank() - 1, c.world()));
    }

    @Override
    public long origins(final int world) {
        return world;
    }

    @Override
    public void run(final Communicator comm, final CommBuffer send, final CommBuffer recv, final Case c) {
        final int next = (c.rank() + 1) % c.world();
        final int prev = Math.floorMod(c.rank() - 1, c.world());
        comm.sendRecv(send, next, recv, prev, c.layout().count(), c.type());
    }
}
