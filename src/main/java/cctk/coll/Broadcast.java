package cctk.coll;

import cctk.comm.CollectiveType;
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

    /** Every rank's send carries its own origin, so data from a rank other than the root shows. */
    @Override
    public Blocks sendBlocks(final Case c) {
        return Blocks.one(c.layout().count(), c.rank());
    }

    @Override
    public Blocks recvBlocks(final Case c) {
        return Blocks.one(c.layout().count(), c.root());
    }

    @Override
    public long origins(final int world) {
        return world;
    }

    @Override
    public void run(final Communicator comm, final CommBuffer send, final CommBuffer recv, final Case c) {
        comm.broadcast(send, recv, c.layout().count(), c.type(), c.root());
    }
}
