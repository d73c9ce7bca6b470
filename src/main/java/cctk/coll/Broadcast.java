package cctk.coll;

import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;

/** recv = send of root on every rank. S = count·size; busbw = algbw. */
public final class Broadcast implements Collective {

    @Override
    public CollectiveType type() {
        return CollectiveType.BROADCAST;
    }

    @Override
    public Layout layout(final long totalBytes, final DType type, final Group group) {
        return Layout.wholeBuffer(totalBytes, type);
    }

    @Override
    public boolean rooted() {
        return true;
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
        return Pattern.data(c.root(), index, c.seed());
    }

    @Override
    public void run(final Communicator comm, final CommBuffer send, final CommBuffer recv, final Case c) {
        comm.broadcast(send, recv, c.layout().count(), c.type(), c.root());
    }
}
