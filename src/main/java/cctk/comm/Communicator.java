package cctk.comm;

/**
 * One rank's handle on a group of ranks, with the collectives of nccl-tests. Counts are in elements of
 * {@code type}; buffers come from {@link #allocate}. A call returns when this rank's part is complete
 * (for asynchronous backends: enqueued; {@link #synchronize} waits). A dead or late peer raises a
 * {@link cctk.CctkException} naming it once the deadline given at creation passes.
 * <b>Note:</b> not threadsafe: one thread drives a communicator.
 */
public interface Communicator extends AutoCloseable {

    int rank();

    int size();

    /** Backend name as it appears in result files, e.g. {@code tcp}. */
    String backend();

    /** Allocates a buffer of {@code bytes} bytes (zeroed), or throws CctkException(ENVIRONMENT) if memory runs out. */
    CommBuffer allocate(long bytes);

    /**
     * Gives the memory of {@code buffer}, which {@link #allocate} returned (not a slice of it), back now rather than
     * when the communicator closes; the buffer and its slices must not be used again, and a collective called on
     * them fails. The default leaves the memory to the garbage collector (backends on heap memory).
     */
    default void free(final CommBuffer buffer) {
        // heap memory: the collector frees it
    }

    /** recv = op over ranks of send; {@code count} elements. send == recv is in-place. */
    void allReduce(CommBuffer send, CommBuffer recv, long count, DType type, ReduceOp op);

    /** recv[r*sendCount ..] = send of rank r; in-place when send is recv's slice at rank*sendCount. */
    void allGather(CommBuffer send, CommBuffer recv, long sendCount, DType type);

    /** recv = op over ranks of send[rank*recvCount ..]; in-place when recv is send's slice at rank*recvCount. */
    void reduceScatter(CommBuffer send, CommBuffer recv, long recvCount, DType type, ReduceOp op);

    /** recv = send of root on every rank. */
    void broadcast(CommBuffer send, CommBuffer recv, long count, DType type, int root);

    /** recv on root = op over ranks of send; other ranks' recv is untouched. */
    void reduce(CommBuffer send, CommBuffer recv, long count, DType type, ReduceOp op, int root);

    /** Block p of send goes to rank p and lands as block rank there; {@code countPerPeer} elements a block. */
    void allToAll(CommBuffer send, CommBuffer recv, long countPerPeer, DType type);

    /**
     * All-to-all with per-peer counts and displacements (in elements): sendCounts[p] elements from
     * send at sendDispls[p] go to rank p, recvCounts[p] elements from rank p land at recvDispls[p].
     */
    void allToAllv(CommBuffer send, long[] sendCounts, long[] sendDispls,
                   CommBuffer recv, long[] recvCounts, long[] recvDispls, DType type);

    /** Sends {@code count} elements to {@code sendPeer} while receiving as many from {@code recvPeer}. */
    void sendRecv(CommBuffer send, int sendPeer, CommBuffer recv, int recvPeer, long count, DType type);

    /**
     * Why this backend cannot run {@code collective} with this type, operator (null where there is
     * none) and placement here, for the result row's skip reason; null when it can. Every rank must answer alike.
     */
    default String unsupported(final CollectiveType collective, final DType type, final ReduceOp op,
                               final boolean inPlace) {
        return null;
    }

    /**
     * The NICs that really carry this rank's traffic, as the result header names them ({@code eth0,lo}), or null when
     * the backend does not know (the device's own transports).
     */
    default String carriers() {
        return null;
    }

    /**
     * What carries this rank's traffic, for its header line, the way NCCL's log names SHM, P2P and NET: e.g.
     * "shm to ranks 1-3" or "shm to rank 1; tcp over eth0,eth1 to rank 2 (leaders)"; null when the backend does not
     * know (the device's own transports). Connections made on first use are named once they are made.
     */
    default String transports() {
        return null;
    }

    /** Returns once every rank has entered the barrier. */
    void barrier();

    /** Waits until every operation issued so far has completed (a no-op for synchronous backends). */
    void synchronize();

    /** Releases sockets, buffers and threads. */
    @Override
    void close();
}
