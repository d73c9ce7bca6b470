package cctk.coll;

import cctk.comm.CollectiveType;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;

/** Every rank waits for all: time only, no data, no bandwidth. */
public final class Barrier implements Collective {

    @Override
    public CollectiveType type() {
        return CollectiveType.BARRIER;
    }

    @Override
    public boolean carriesData() {
        return false;
    }

    @Override
    public boolean hasInPlace() {
        return false;
    }

    @Override
    public Layout layout(final long totalBytes, final DType type, final Group group) {
        return Layout.of(0, 0, 0, 0, 0, 0);
    }

    @Override
    public double busBwFactor(final int world) {
        return 0;
    }

    @Override
    public Blocks sendBlocks(final Case c) {
        return Blocks.NONE;
    }

    @Override
    public Blocks recvBlocks(final Case c) {
        return Blocks.NONE;
    }

    @Override
    public long origins(final int world) {
        return 0;
    }

    @Override
    public void run(final Communicator comm, final CommBuffer send, final CommBuffer recv, final Case c) {
        comm.barrier();
    }
}
