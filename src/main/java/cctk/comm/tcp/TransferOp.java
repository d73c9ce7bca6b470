package cctk.comm.tcp;

import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.comm.HostMemory;
import java.nio.ByteBuffer;

/**
 * One transfer {@link Transfers} has posted on one link: preallocated, reused for every operation.
 * <b>Note:</b> not threadsafe: the communicator's thread only.
 */
final class TransferOp {

    Link link;
    boolean send;
    ByteBuffer cursor;
    int start;
    int pos;
    int end;
    TransferOp gate;
    /** The op posted before this one on the same link and direction: the byte stream is shared. */
    TransferOp after;
    boolean done;
    boolean reduce;
    HostMemory tmp;
    HostMemory out;
    int outStart;
    HostMemory in;
    int inStart;
    DType type;
    ReduceOp op;
    int reduced;
    /** Start of a reducing receive's staging ring: stream byte x lands at stage + (x - start) % Transfers.STAGE. */
    int stage;

    /** End (exclusive, in the bytes a forward reads) of what this receive has made final. */
    int produced() {
        return reduce ? outStart + (reduced - start) : pos;
    }
}
