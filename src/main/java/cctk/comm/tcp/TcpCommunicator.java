package cctk.comm.tcp;

import cctk.CctkException;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.comm.Store;
import cctk.comm.Tuning;

/**
 * The tcp backend: TCP connections (one per NIC per peer pair) driven by one thread, made when an algorithm first
 * needs them ({@link TcpMesh}, {@link Peers}). Reducing collectives are pipelined rings or chains
 * ({@link ReducingAlgorithms}); the others are in {@link MovingAlgorithms}. Up to {@code Tuning.directMaxRanks}
 * ranks, all-gather and small all-reduce talk to every peer directly; beyond, they run rings, so that only
 * all-to-all needs every peer. Runs on its own buffers and on other backends' host memory ({@link HostViews}).
 * Buffers hold little-endian elements; offsets of buffers must be multiples of the element size.
 * <b>Note:</b> not threadsafe: one thread drives a communicator.
 */
public final class TcpCommunicator implements Communicator {

    private final int rank;
    private final int size;
    private final TcpOptions options;
    private final TcpMesh mesh;
    final Link[][] links;
    private final Transfers transfers;
    private final ReducingAlgorithms reducing;
    private final MovingAlgorithms moving;
    private final HostViews views = new HostViews();
    private final boolean broadcastStreams;
    private TcpBuffer scratch = TcpBuffer.allocate(64);
    private boolean closed;

    private TcpCommunicator(final int rank, final int size, final TcpMesh mesh, final TcpOptions options) {
        this.rank = rank;
        this.size = size;
        this.options = options;
        this.mesh = mesh;
        this.links = mesh.links;
        this.transfers = new Transfers(options, rank, mesh, HostTuning.spinNanos(options, size),
                HostTuning.streamSendBytes(options));
        final Peers peers = new Peers(mesh, rank, size, Tuning.fromSystemProperties().directMaxRanks());
        this.reducing = new ReducingAlgorithms(this, transfers, peers);
        this.moving = new MovingAlgorithms(transfers, peers, rank, size);
        this.broadcastStreams = HostTuning.broadcastStreams(options, size);
    }

    /**
     * Refuses (CctkException ENVIRONMENT, as {@link #connect} would) a NIC of {@code interfaces} that this host does
     * not have, has down or without an address: for transports that open no socket on it (shared memory), so that
     * a misspelt NIC is not silently ignored.
     */
    public static void checkInterfaces(final java.util.List<String> interfaces) {
        NicAddresses.of(interfaces, false);
    }

    /**
     * Opens this rank's listening sockets and publishes them through {@code store} (keys under
     * {@code options.keyPrefix()}); connects no peer yet: each collective connects the peers it uses the first time
     * it needs them. Throws CctkException(ENVIRONMENT) naming the host and interface when that fails.
     */
    public static TcpCommunicator connect(final TcpOptions options, final int rank, final int size,
                                          final Store store) {
        if (size < 1 || rank < 0 || rank >= size) {
            throw CctkException.usage("rank " + rank + " is not in a world of " + size + " ranks.");
        }
        return new TcpCommunicator(rank, size, TcpMesh.open(options, rank, size, store), options);
    }

    /** The store keys this kind of communicator keeps while it lives: rank 0 may drop them once every rank closed. */
    public static String storePrefix(final TcpOptions options) {
        return TcpMesh.endpointsPrefix(options);
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public String backend() {
        return "tcp";
    }

    /**
     * The interfaces that carry this rank's links, sorted (e.g. "lo" on one node, "eth0,eth1,lo" when the
     * stripes of a two-NIC job reach other nodes and a peer shares the node), or "none" for a world of one.
     */
    @Override
    public String carriers() {
        final java.util.Set<String> names = new java.util.TreeSet<>();
        for (final Link[] row : links) {
            for (final Link l : row == null ? new Link[0] : row) {
                final String n = l == null ? null : LinkNic.name(l);
                if (n != null) {
                    names.add(n);
                }
            }
        }
        return names.isEmpty() ? "none" : String.join(",", names);
    }

    /**
     * The connected peers by the interfaces that carry them, in world ranks: "tcp over eth0,eth1 to ranks 2,3; tcp
     * over lo to rank 1"; "tcp: no connection yet" before the first.
     */
    @Override
    public String transports() {
        return LinkNic.transports(links, options::rankOf);
    }

    /** Sockets this communicator holds open now: its listening sockets and its links. */
    public int sockets() {
        int n = mesh.stripes;
        for (final Link[] row : links) {
            for (int s = 0; row != null && s < row.length; s++) {
                n += row[s] == null ? 0 : 1;
            }
        }
        return n;
    }

    @Override
    public CommBuffer allocate(final long bytes) {
        if (bytes < 0 || bytes > Integer.MAX_VALUE - 8) {
            throw CctkException.usage("the tcp backend allocates buffers of 0 to 2 GiB; " + bytes
                    + " bytes were asked for.");
        }
        try {
            return TcpBuffer.allocate((int) bytes);
        } catch (final OutOfMemoryError e) {
            throw CctkException.environment(options.label(rank) + " could not allocate " + bytes + " bytes of direct"
                    + " memory (raise -XX:MaxDirectMemorySize or use smaller messages).");
        }
    }

    /** Frees a buffer {@link #allocate} returned; its memory goes back at once (see {@link TcpBuffer}). */
    @Override
    public void free(final CommBuffer buffer) {
        if (!(buffer instanceof TcpBuffer)) {
            throw CctkException.usage("the tcp backend frees only buffers it allocated, not " + buffer + ".");
        }
        final TcpBuffer t = tcp(buffer);
        if (!t.whole()) {
            throw CctkException.usage("only a whole buffer can be freed, not a slice of " + t.length + " bytes at "
                    + t.offset + ".");
        }
        t.memory.free();
    }

    /** Stops using another backend's buffer {@code buffer}, which its owner is about to free. */
    @Override
    public void forget(final CommBuffer buffer) {
        if (!(buffer instanceof TcpBuffer) && buffer.hostMemory() != null) {
            views.forget(buffer.hostMemory());
        }
    }

    @Override
    public void allReduce(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                          final ReduceOp op) {
        transfers.operation("all_reduce", false);
        final int bytes = bytes(count, type);
        reducing.allReduce(check(send, 0, bytes, type), check(recv, 0, bytes, type), (int) count, type, op);
    }

    @Override
    public void allGather(final CommBuffer send, final CommBuffer recv, final long sendCount, final DType type) {
        transfers.operation("all_gather", true);
        final int block = bytes(sendCount, type);
        final TcpBuffer s = check(send, 0, block, type);
        final TcpBuffer r = check(recv, 0, bytes(sendCount * size, type), type);
        moving.allGather(s, r, block, type.bytes());
    }

    @Override
    public void reduceScatter(final CommBuffer send, final CommBuffer recv, final long recvCount, final DType type,
                              final ReduceOp op) {
        transfers.operation("reduce_scatter", false);
        final int block = bytes(recvCount, type);
        final TcpBuffer s = check(send, 0, bytes(recvCount * size, type), type);
        reducing.reduceScatter(s, check(recv, 0, block, type), (int) recvCount, type, op);
    }

    @Override
    public void broadcast(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                          final int root) {
        transfers.operation("broadcast", broadcastStreams);
        checkPeer(root, "root");
        final int bytes = bytes(count, type);
        final TcpBuffer r = check(recv, 0, bytes, type);
        if (bytes == 0) {
            return;
        }
        moving.broadcast(rank == root ? check(send, 0, bytes, type) : null, r, bytes, type.bytes(), root);
    }

    @Override
    public void reduce(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                       final ReduceOp op, final int root) {
        transfers.operation("reduce", false);
        checkPeer(root, "root");
        final int bytes = bytes(count, type);
        final TcpBuffer s = check(send, 0, bytes, type);
        final TcpBuffer r = rank == root ? check(recv, 0, bytes, type) : null;
        reducing.reduce(s, r, (int) count, type, op, root);
    }

    @Override
    public void allToAll(final CommBuffer send, final CommBuffer recv, final long countPerPeer, final DType type) {
        transfers.operation("alltoall", true);
        final int block = bytes(countPerPeer, type);
        final int total = bytes(countPerPeer * size, type);
        TcpBuffer s = check(send, 0, total, type);
        final TcpBuffer r = check(recv, 0, total, type);
        if (block == 0) {
            return;
        }
        if (s.overlaps(r)) {
            s = copyToScratch(s, total);
        }
        moving.allToAll(s, r, block, type.bytes());
    }

    @Override
    public void allToAllv(final CommBuffer send, final long[] sendCounts, final long[] sendDispls,
                          final CommBuffer recv, final long[] recvCounts, final long[] recvDispls, final DType type) {
        transfers.operation("alltoallv", true);
        cctk.comm.AllToAllvArgs.check(rank, size, sendCounts, sendDispls, recvCounts, recvDispls);
        TcpBuffer s = tcp(send);
        final TcpBuffer r = tcp(recv);
        final int unit = type.bytes();
        int sendEnd = 0;
        for (int p = 0; p < size; p++) {
            sendEnd = Math.max(sendEnd, bytes(sendDispls[p] + sendCounts[p], type));
            check(recv, 0, bytes(recvDispls[p] + recvCounts[p], type), type);
        }
        check(send, 0, sendEnd, type);
        if (s.overlaps(r)) {
            s = copyToScratch(s, sendEnd);
        }
        moving.allToAllv(s, sendCounts, sendDispls, r, recvCounts, recvDispls, unit);
    }

    @Override
    public void sendRecv(final CommBuffer send, final int sendPeer, final CommBuffer recv, final int recvPeer,
                         final long count, final DType type) {
        transfers.operation("sendrecv", true);
        checkPeer(sendPeer, "send peer");
        checkPeer(recvPeer, "receive peer");
        final int bytes = bytes(count, type);
        final TcpBuffer s = check(send, 0, bytes, type);
        final TcpBuffer r = check(recv, 0, bytes, type);
        if ((sendPeer == rank) != (recvPeer == rank)) {
            throw CctkException.usage("sendrecv on rank " + rank + " sends to rank " + sendPeer + " but receives"
                    + " from rank " + recvPeer + "; a rank can only pair with itself in both directions.");
        }
        // in place, the receive would overwrite bytes the socket has not yet taken
        final TcpBuffer from = sendPeer != rank && s.overlaps(r) ? copyToScratch(s, bytes) : s;
        moving.sendRecv(from, sendPeer, r, recvPeer, bytes, type.bytes());
    }

    @Override
    public void barrier() {
        transfers.operation("barrier");
        moving.barrier();
    }

    @Override
    public void synchronize() {
        // synchronous backend: every call has completed when it returns
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        mesh.close();
        transfers.free();
        scratch.memory.free();
        moving.free();
    }

    /** The progress engine (for tests of how ops are posted). */
    Transfers transfers() {
        return transfers;
    }

    /**
     * Internal memory of at least {@code bytes} bytes, kept across calls and grown to exactly what a call needs (so
     * it never exceeds the largest message; the old memory goes back at once).
     */
    TcpBuffer scratch(final int bytes) {
        if (scratch.length < bytes) {
            // the old memory goes first, so growing never holds both (at 256 MiB that was 64 MiB more at the peak);
            // an empty buffer stands in meanwhile, so a failed allocation leaves nothing freed in use
            scratch.memory.free();
            scratch = TcpBuffer.allocate(0);
            scratch = TcpBuffer.allocate(bytes);
        }
        return scratch;
    }

    private TcpBuffer copyToScratch(final TcpBuffer s, final int bytes) {
        final TcpBuffer copy = scratch(bytes);
        transfers.copy(s, 0, copy, 0, bytes);
        return copy;
    }

    private void checkPeer(final int peer, final String what) {
        if (peer < 0 || peer >= size) {
            throw CctkException.usage(what + " " + peer + " is not a rank of this " + size + "-rank communicator.");
        }
    }

    private TcpBuffer tcp(final CommBuffer b) {
        if (b instanceof TcpBuffer t) {
            return t;
        }
        final java.nio.ByteBuffer host = b == null ? null : b.hostMemory();
        if (host != null) {
            return views.of(b, host);
        }
        throw CctkException.usage("the tcp backend runs only on host memory, not on " + b);
    }

    private TcpBuffer check(final CommBuffer b, final int off, final int bytes, final DType type) {
        final TcpBuffer t = tcp(b);
        if (t.memory.freed()) {
            throw CctkException.usage("a buffer of " + t.length + " bytes was used after it was freed.");
        }
        if (t.length < off + bytes) {
            throw CctkException.usage("a buffer of " + t.length + " bytes is too small for " + (off + bytes)
                    + " bytes of " + type.specName() + ".");
        }
        if (t.offset % type.bytes() != 0) {
            throw CctkException.usage("a " + type.specName() + " buffer must start at a multiple of "
                    + type.bytes() + " bytes; this one starts at " + t.offset + ".");
        }
        return t;
    }

    private static int bytes(final long count, final DType type) {
        final long b = count * type.bytes();
        if (count < 0 || b > Integer.MAX_VALUE - 8) {
            throw CctkException.usage("an element count of " + count + " " + type.specName() + " is out of range"
                    + " for the tcp backend (0 to 2 GiB per buffer).");
        }
        return (int) b;
    }
}
