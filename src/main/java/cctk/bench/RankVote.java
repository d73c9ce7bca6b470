package cctk.bench;

import cctk.coll.Elements;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import java.nio.ByteBuffer;

/**
 * The small votes every rank of a communicator takes part in: one int, the largest any rank gives, by an
 * all-reduce of the communicator itself. The sweep's decisions (re-time a point, end the warm-up, the buffers that
 * fit) and a diagnosis's warm-up are taken this way, so every rank takes the same branch. The buffers are
 * allocated at the first vote and reused; a vote allocates nothing.
 * <b>Note:</b> not threadsafe: the communicator's thread.
 */
public final class RankVote implements AutoCloseable {

    private final Communicator comm;
    /** The host side of every vote, reused. */
    private final ByteBuffer vote = ByteBuffer.allocate(4).order(Elements.ORDER);
    private CommBuffer voteSend;
    private CommBuffer voteRecv;

    public RankVote(final Communicator comm) {
        this.comm = comm;
    }

    /** Agrees with every rank whether {@code flag} holds on any of them. A collective itself. */
    public boolean anyRank(final boolean flag) {
        return firstFailingRank(flag) >= 0;
    }

    /** Agrees with every rank whether someone failed: the lowest failing rank, or -1. A collective itself. */
    public int firstFailingRank(final boolean failed) {
        final int v = maxOverRanks(failed ? comm.size() - comm.rank() : 0);
        return v == 0 ? -1 : comm.size() - v;
    }

    /** The largest {@code value} any rank gives. A collective itself. */
    public int maxOverRanks(final int value) {
        if (voteSend == null) {
            voteSend = comm.allocate(4);
            voteRecv = comm.allocate(4);
        }
        final ByteBuffer b = vote.clear();
        b.putInt(0, value);
        voteSend.upload(b, 0);
        comm.allReduce(voteSend, voteRecv, 1, DType.INT32, ReduceOp.MAX);
        comm.synchronize();
        b.clear();
        voteRecv.download(0, b);
        return b.getInt(0);
    }

    /** Gives the votes' buffers back. */
    @Override
    public void close() {
        if (voteSend != null) {
            comm.free(voteSend);
            comm.free(voteRecv);
            voteSend = null;
            voteRecv = null;
        }
    }
}
