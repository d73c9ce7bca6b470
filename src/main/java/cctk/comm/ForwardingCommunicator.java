package cctk.comm;

/**
 * A communicator that hands every call to another: the base of wrappers that change one or two things (the name a
 * backend is filed under, what its header says, what a test counts) and forward the rest.
 * <b>Note:</b> as threadsafe as the communicator it wraps.
 */
public abstract class ForwardingCommunicator implements Communicator {

    /** The communicator every call goes to. */
    protected final Communicator delegate;

    protected ForwardingCommunicator(final Communicator delegate) {
        this.delegate = delegate;
    }

    @Override
    public int rank() {
        return delegate.rank();
    }

    @Override
    public int size() {
        return delegate.size();
    }

    @Override
    public String backend() {
        return delegate.backend();
    }

    @Override
    public CommBuffer allocate(final long bytes) {
        return delegate.allocate(bytes);
    }

    @Override
    public void free(final CommBuffer buffer) {
        delegate.free(buffer);
    }

    @Override
    public void allReduce(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                          final ReduceOp op) {
        delegate.allReduce(send, recv, count, type, op);
    }

    @Override
    public void allGather(final CommBuffer send, final CommBuffer recv, final long sendCount, final DType type) {
        delegate.allGather(send, recv, sendCount, type);
    }

    @Override
    public void reduceScatter(final CommBuffer send, final CommBuffer recv, final long recvCount, final DType type,
                              final ReduceOp op) {
        delegate.reduceScatter(send, recv, recvCount, type, op);
    }

    @Override
    public void broadcast(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                          final int root) {
        delegate.broadcast(send, recv, count, type, root);
    }

    @Override
    public void reduce(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                       final ReduceOp op, final int root) {
        delegate.reduce(send, recv, count, type, op, root);
    }

    @Override
    public void allToAll(final CommBuffer send, final CommBuffer recv, final long countPerPeer, final DType type) {
        delegate.allToAll(send, recv, countPerPeer, type);
    }

    @Override
    public void allToAllv(final CommBuffer send, final long[] sendCounts, final long[] sendDispls,
                          final CommBuffer recv, final long[] recvCounts, final long[] recvDispls, final DType type) {
        delegate.allToAllv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls, type);
    }

    @Override
    public void sendRecv(final CommBuffer send, final int sendPeer, final CommBuffer recv, final int recvPeer,
                         final long count, final DType type) {
        delegate.sendRecv(send, sendPeer, recv, recvPeer, count, type);
    }

    @Override
    public String unsupported(final CollectiveType collective, final DType type, final ReduceOp op,
                              final boolean inPlace) {
        return delegate.unsupported(collective, type, op, inPlace);
    }

    @Override
    public String carriers() {
        return delegate.carriers();
    }

    @Override
    public String transports() {
        return delegate.transports();
    }

    @Override
    public void barrier() {
        delegate.barrier();
    }

    @Override
    public void synchronize() {
        delegate.synchronize();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
