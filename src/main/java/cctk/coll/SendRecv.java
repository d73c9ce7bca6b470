package cctk.coll;

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
    public double input(final Case c, final long index) {
        return Pattern.data(c.rank(), index, c.seed());
    }

    @Override
    public long checkedElements(final Case c) {
        return c.layout().count();
    }

    @Override
    public double expected(final Case c, final long index) {
        return Pattern.data(Math.floorMod(c.rank() - 1, c.world()), index, c.seed());
    }

    @Override
    public void run(final Communicator comm, final CommBuffer send, final CommBuffer recv, final Case c) {
        final int next = (c.rank() + 1) % c.world();
        final int prev = Math.floorMod(c.rank() - 1, c.world());
        comm.sendRecv(send, next, recv, prev, c.layout().count(), c.type());
    }
}
