package cctk.coll;

import cctk.comm.CollectiveType;
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
    public Blocks sendBlocks(final Case c) {
        return Blocks.one(c.layout().count(), 0);
    }

    @Override
    public Blocks recvBlocks(final Case c) {
        return c.rank() == c.root() ? Blocks.one(c.layout().count(), 0) : Blocks.NONE;
    }

    @Override
    public long origins(final int world) {
        return 1;
    }

    @Override
    public void run(final Communicator comm, final CommBuffer send, final CommBuffer recv, final Case c) {
        comm.reduce(send, recv, c.layout().count(), c.type(), c.op(), c.root());
    }
}
