package cctk.comm;

import cctk.CctkException;

/**
 * The frame of the communicators that run their collectives on the host, synchronously (tcp, shared memory,
 * hierarchical): each collective of {@link Communicator} is written once here, and a backend supplies only its
 * body ({@code run...}) and a few hooks. The frame checks what every backend refuses alike (element counts that do
 * not fit {@code maxBytes}, roots and peers outside the group, a send/recv pairing a rank with itself in one
 * direction only, alltoallv's arrays through {@link AllToAllvArgs}), names the collective for failure messages
 * ({@link #begin}), turns the caller's buffers into the backend's own ({@link #in}, {@link #out}, {@link #apart})
 * and copies results back ({@link #flush}), hands a failure to {@link #failed} and {@link #end}s the collective
 * however it went. Allocation-free: no lambda, no boxing; whatever a hook allocates is its own.
 * <b>Note:</b> not threadsafe: one thread drives a communicator.
 *
 * @param <B> the buffers the bodies run on
 */
public abstract class HostCommunicator<B extends CommBuffer> implements Communicator {

    /** This rank and the group's size, which roots and peers are checked against. */
    protected final int rank;
    protected final int size;
    private final String limitOwner;
    private final long maxBytes;

    /**
     * A frame for rank {@code rank} of {@code size}, whose buffers hold at most {@code maxBytes}; an element count
     * beyond is refused as out of range "for the {@code limitOwner} backend".
     */
    protected HostCommunicator(final int rank, final int size, final String limitOwner, final long maxBytes) {
        this.rank = rank;
        this.size = size;
        this.limitOwner = limitOwner;
        this.maxBytes = maxBytes;
    }

    @Override
    public final int rank() {
        return rank;
    }

    @Override
    public final int size() {
        return size;
    }

    /** Starts {@code collective}, moving {@code bytes} of {@code type} (-1 and null: the barrier), once checked. */
    protected void begin(final CollectiveType collective, final long bytes, final DType type) {
        // nothing to name
    }

    /** Ends the collective {@link #begin} started, also when it failed. */
    protected void end() {
        // nothing to forget
    }

    /** What a collective that failed with {@code e} throws (a backend may remember a broken group here). */
    protected CctkException failed(final CctkException e) {
        return e;
    }

    /** {@code buffer} to read {@code bytes} of {@code type} from, as the backend's own (checked, or staged in). */
    protected abstract B in(CommBuffer buffer, int bytes, DType type);

    /** {@code buffer} to write {@code bytes} of {@code type} to, as the backend's own ({@link #flush}ed after). */
    protected abstract B out(CommBuffer buffer, int bytes, DType type);

    /** Copies {@code bytes} at {@code offset} of {@code used}, what {@link #out} gave for {@code target}, to it. */
    protected void flush(final CommBuffer target, final B used, final int offset, final int bytes) {
        // the body wrote the caller's buffer
    }

    /**
     * {@code send}, or a copy of its first {@code bytes} where it overlaps {@code recv}: for the collectives whose
     * peers would read bytes this rank overwrites (all-to-all, send/recv in place).
     */
    protected B apart(final B send, final B recv, final int bytes) {
        return send;
    }

    protected abstract void runAllReduce(B send, B recv, long count, DType type, ReduceOp op);

    protected abstract void runAllGather(B send, B recv, long sendCount, DType type);

    protected abstract void runReduceScatter(B send, B recv, long recvCount, DType type, ReduceOp op);

    /** {@code send} is null except on the root. */
    protected abstract void runBroadcast(B send, B recv, long count, DType type, int root);

    /** {@code recv} is null except on the root. */
    protected abstract void runReduce(B send, B recv, long count, DType type, ReduceOp op, int root);

    protected abstract void runAllToAll(B send, B recv, long countPerPeer, DType type);

    protected abstract void runAllToAllv(B send, long[] sendCounts, long[] sendDispls,
                                         B recv, long[] recvCounts, long[] recvDispls, DType type);

    protected abstract void runSendRecv(B send, int sendPeer, B recv, int recvPeer, long count, DType type);

    protected abstract void runBarrier();

    @Override
    public final void allReduce(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                                final ReduceOp op) {
        final int bytes = bytes(count, type);
        begin(CollectiveType.ALL_REDUCE, bytes, type);
        try {
            final B r = out(recv, bytes, type);
            runAllReduce(in(send, bytes, type), r, count, type, op);
            flush(recv, r, 0, bytes);
        } catch (final CctkException e) {
            throw failed(e);
        } finally {
            end();
        }
    }

    @Override
    public final void allGather(final CommBuffer send, final CommBuffer recv, final long sendCount,
                                final DType type) {
        final int block = bytes(sendCount, type);
        final int total = bytes(sendCount * size, type);
        begin(CollectiveType.ALL_GATHER, total, type);
        try {
            final B r = out(recv, total, type);
            runAllGather(in(send, block, type), r, sendCount, type);
            flush(recv, r, 0, total);
        } catch (final CctkException e) {
            throw failed(e);
        } finally {
            end();
        }
    }

    @Override
    public final void reduceScatter(final CommBuffer send, final CommBuffer recv, final long recvCount,
                                    final DType type, final ReduceOp op) {
        final int block = bytes(recvCount, type);
        final int total = bytes(recvCount * size, type);
        begin(CollectiveType.REDUCE_SCATTER, total, type);
        try {
            final B r = out(recv, block, type);
            runReduceScatter(in(send, total, type), r, recvCount, type, op);
            flush(recv, r, 0, block);
        } catch (final CctkException e) {
            throw failed(e);
        } finally {
            end();
        }
    }

    @Override
    public final void broadcast(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                                final int root) {
        checkPeer(root, "root");
        final int bytes = bytes(count, type);
        begin(CollectiveType.BROADCAST, bytes, type);
        try {
            final B r = out(recv, bytes, type);
            runBroadcast(rank == root ? in(send, bytes, type) : null, r, count, type, root);
            flush(recv, r, 0, bytes);
        } catch (final CctkException e) {
            throw failed(e);
        } finally {
            end();
        }
    }

    @Override
    public final void reduce(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                             final ReduceOp op, final int root) {
        checkPeer(root, "root");
        final int bytes = bytes(count, type);
        begin(CollectiveType.REDUCE, bytes, type);
        try {
            final B s = in(send, bytes, type);
            final B r = rank == root ? out(recv, bytes, type) : null;
            runReduce(s, r, count, type, op, root);
            if (r != null) {
                flush(recv, r, 0, bytes);
            }
        } catch (final CctkException e) {
            throw failed(e);
        } finally {
            end();
        }
    }

    @Override
    public final void allToAll(final CommBuffer send, final CommBuffer recv, final long countPerPeer,
                               final DType type) {
        bytes(countPerPeer, type);
        final int total = bytes(countPerPeer * size, type);
        begin(CollectiveType.ALLTOALL, total, type);
        try {
            final B r = out(recv, total, type);
            runAllToAll(apart(in(send, total, type), r, total), r, countPerPeer, type);
            flush(recv, r, 0, total);
        } catch (final CctkException e) {
            throw failed(e);
        } finally {
            end();
        }
    }

    @Override
    public final void allToAllv(final CommBuffer send, final long[] sendCounts, final long[] sendDispls,
                                final CommBuffer recv, final long[] recvCounts, final long[] recvDispls,
                                final DType type) {
        AllToAllvArgs.check(rank, size, sendCounts, sendDispls, recvCounts, recvDispls);
        final int sendEnd = bytes(AllToAllvArgs.extent(sendCounts, sendDispls), type);
        final int recvEnd = bytes(AllToAllvArgs.extent(recvCounts, recvDispls), type);
        begin(CollectiveType.ALLTOALLV, sendEnd, type);
        try {
            final B r = out(recv, recvEnd, type);
            final B s = apart(in(send, sendEnd, type), r, sendEnd);
            runAllToAllv(s, sendCounts, sendDispls, r, recvCounts, recvDispls, type);
            for (int p = 0; p < size; p++) { // only the blocks: the gaps between them keep their bytes
                flush(recv, r, (int) recvDispls[p] * type.bytes(), (int) recvCounts[p] * type.bytes());
            }
        } catch (final CctkException e) {
            throw failed(e);
        } finally {
            end();
        }
    }

    @Override
    public final void sendRecv(final CommBuffer send, final int sendPeer, final CommBuffer recv, final int recvPeer,
                               final long count, final DType type) {
        checkPeer(sendPeer, "send peer");
        checkPeer(recvPeer, "receive peer");
        if ((sendPeer == rank) != (recvPeer == rank)) {
            throw CctkException.usage("sendrecv on rank " + rank + " sends to rank " + sendPeer + " but receives"
                    + " from rank " + recvPeer + "; a rank can only pair with itself in both directions.");
        }
        final int bytes = bytes(count, type);
        begin(CollectiveType.SENDRECV, bytes, type);
        try {
            final B r = out(recv, bytes, type);
            final B s = in(send, bytes, type);
            // in place, the receive would overwrite bytes the peer has not yet read
            runSendRecv(sendPeer == rank ? s : apart(s, r, bytes), sendPeer, r, recvPeer, count, type);
            flush(recv, r, 0, bytes);
        } catch (final CctkException e) {
            throw failed(e);
        } finally {
            end();
        }
    }

    @Override
    public final void barrier() {
        begin(CollectiveType.BARRIER, -1, null);
        try {
            runBarrier();
        } catch (final CctkException e) {
            throw failed(e);
        } finally {
            end();
        }
    }

    /** Synchronous: every call has completed when it returns. */
    @Override
    public final void synchronize() {
        // nothing is left running
    }

    private void checkPeer(final int peer, final String what) {
        if (peer < 0 || peer >= size) {
            throw CctkException.usage(what + " " + peer + " is not a rank of this " + size + "-rank communicator.");
        }
    }

    /** {@code count} elements of {@code type} in bytes, refused where negative or beyond {@code maxBytes}. */
    private int bytes(final long count, final DType type) {
        final long b = count * type.bytes();
        if (count < 0 || b > maxBytes) {
            throw CctkException.usage("an element count of " + count + " " + type.specName() + " is out of range"
                    + " for the " + limitOwner + " backend (0 to 2 GiB per buffer).");
        }
        return (int) b;
    }
}
