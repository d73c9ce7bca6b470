package cctk.rank;

import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.ReduceOp;

/**
 * A communicator under the backend name the spec gave it ({@code tcp-flat}), whose header line says why it was chosen
 * ("flat tcp: hosts hold 3, 1 ranks; the hierarchical algorithms need the same number on every host, in blocks"):
 * everything else is the wrapped one's.
 * <b>Note:</b> not threadsafe, as the wrapped communicator.
 */
final class NotedCommunicator implements Communicator {

    private final Communicator c;
    private final String backend;
    private final String note;

    /** {@code c} named {@code backend}; {@code note} (null: none) goes before its transports. */
    NotedCommunicator(final Communicator c, final String backend, final String note) {
        this.c = c;
        this.backend = backend;
        this.note = note;
    }

    @Override
    public String transports() {
        final String t = c.transports();
        if (note == null) {
            return t;
        }
        return note + (t == null ? "" : "; " + t);
    }

    @Override
    public int rank() {
        return c.rank();
    }

    @Override
    public int size() {
        return c.size();
    }

    @Override
    public String backend() {
        return backend;
    }

    @Override
    public CommBuffer allocate(final long bytes) {
        return c.allocate(bytes);
    }

    @Override
    public void free(final CommBuffer buffer) {
        c.free(buffer);
    }

    @Override
    public void forget(final CommBuffer buffer) {
        c.forget(buffer);
    }

    @Override
    public void allReduce(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                          final ReduceOp op) {
        c.allReduce(send, recv, count, type, op);
    }

    @Override
    public void allGather(final CommBuffer send, final CommBuffer recv, final long sendCount, final DType type) {
        c.allGather(send, recv, sendCount, type);
    }

    @Override
    public void reduceScatter(final CommBuffer send, final CommBuffer recv, final long recvCount, final DType type,
                              final ReduceOp op) {
        c.reduceScatter(send, recv, recvCount, type, op);
    }

    @Override
    public void broadcast(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                          final int root) {
        c.broadcast(send, recv, count, type, root);
    }

    @Override
    public void reduce(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                       final ReduceOp op, final int root) {
        c.reduce(send, recv, count, type, op, root);
    }

    @Override
    public void allToAll(final CommBuffer send, final CommBuffer recv, final long countPerPeer, final DType type) {
        c.allToAll(send, recv, countPerPeer, type);
    }

    @Override
    public void allToAllv(final CommBuffer send, final long[] sendCounts, final long[] sendDispls,
                          final CommBuffer recv, final long[] recvCounts, final long[] recvDispls, final DType type) {
        c.allToAllv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls, type);
    }

    @Override
    public void sendRecv(final CommBuffer send, final int sendPeer, final CommBuffer recv, final int recvPeer,
                         final long count, final DType type) {
        c.sendRecv(send, sendPeer, recv, recvPeer, count, type);
    }

    @Override
    public String unsupported(final String collective, final DType type, final ReduceOp op, final boolean inPlace) {
        return c.unsupported(collective, type, op, inPlace);
    }

    @Override
    public String carriers() {
        return c.carriers();
    }

    @Override
    public void barrier() {
        c.barrier();
    }

    @Override
    public void synchronize() {
        c.synchronize();
    }

    @Override
    public void close() {
        c.close();
    }
}
