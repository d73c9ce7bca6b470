package cctk.coll;

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
    public double input(final Case c, final long index) {
        return Pattern.input(c.op(), c.type(), c.world(), c.rank(), index, c.seed());
    }

    @Override
    public long checkedElements(final Case c) {
        return c.layout().count();
    }

    @Override
    public double expected(final Case c, final long index) {
        return Pattern.reduced(c.op(), c.type(), c.world(), index, c.seed());
    }

    @Override
    public void run(final Communicator comm, final CommBuffer send, final CommBuffer recv, final Case c) {
        comm.allReduce(send, recv, c.layout().count(), c.type(), c.op());
    }
}
