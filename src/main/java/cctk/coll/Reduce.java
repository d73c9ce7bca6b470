package cctk.coll;

import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;

/** recv on root = op over ranks of send; checked on root only. S = count·size; busbw = algbw. */
public final class Reduce implements Collective {

    @Override
    public CollectiveType type() {
        return CollectiveType.REDUCE;
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
        return Pattern.input(c.op(), c.type(), c.world(), c.rank(), index, c.seed());
    }

    @Override
    public long checkedElements(final Case c) {
        return c.rank() == c.root() ? c.layout().count() : 0;
    }

    @Override
    public double expected(final Case c, final long index) {
        return Pattern.reduced(c.op(), c.type(), c.world(), index, c.seed());
    }

    @Override
    public void run(final Communicator comm, final CommBuffer send, final CommBuffer recv, final Case c) {
        comm.reduce(send, recv, c.layout().count(), c.type(), c.op(), c.root());
    }
}
