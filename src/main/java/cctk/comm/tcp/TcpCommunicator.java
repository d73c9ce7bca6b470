package cctk.comm.tcp;

import cctk.CctkException;
import cctk.comm.CollectiveType;
import cctk.comm.CommBuffer;
import cctk.comm.HostCommunicator;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.comm.Store;
import cctk.comm.Tuning;
import cctk.comm.HostBuffer;
import cctk.comm.HostMemory;

/**
 * The tcp backend: TCP connections (one per NIC per peer pair) driven by one thread, made when an algorithm first
 * needs them ({@link TcpMesh}, {@link Peers}). Reducing collectives are pipelined rings or chains
 * ({@link ReducingAlgorithms}); the others are in {@link MovingAlgorithms}. Up to {@code Tuning.directMaxRanks}
 * ranks, all-gather and small all-reduce talk to every peer directly; beyond, they run rings, so that only
 * all-to-all needs every peer. Runs in place on any {@link HostBuffer}: its own and those of the shm backend (the
 * node's shared memory, where a hierarchical communicator's leaders run it). Buffers hold little-endian elements;
 * offsets of buffers must be multiples of the element size.
 * {@link HostCommunicator} checks the arguments and frames each collective; the bodies here only move bytes.
 * <b>Note:</b> not threadsafe: one thread drives a communicator.
 */
public final class TcpCommunicator extends HostCommunicator<HostBuffer> {

    private final TcpOptions options;
    private final TcpMesh mesh;
    final Link[][] links;
    private final Transfers transfers;
    private final ReducingAlgorithms reducing;
    private final MovingAlgorithms moving;
    private final boolean broadcastStreams;
    private HostBuffer scratch = HostBuffer.allocate(64);
    private boolean closed;

    private TcpCommunicator(final int rank, final int size, final TcpMesh mesh, final TcpOptions options) {
        super(rank, size, "tcp", Integer.MAX_VALUE - 8);
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
            return HostBuffer.allocate((int) bytes);
        } catch (final OutOfMemoryError e) {
            throw CctkException.environment(options.label(rank) + " could not allocate " + bytes + " bytes of direct"
                    + " memory (raise -XX:MaxDirectMemorySize or use smaller messages).");
        }
    }

    /**
     * Frees a buffer {@link #allocate} returned (one of another backend's memory, tagged by it, is not this one's);
     * its memory goes back at once (see {@link HostMemory#free}).
     */
    @Override
    public void free(final CommBuffer buffer) {
        if (!(buffer instanceof HostBuffer t) || t.memory.tag() != null) {
            throw CctkException.usage("the tcp backend frees only buffers it allocated, not " + buffer + ".");
        }
        if (!t.whole()) {
            throw CctkException.usage("only a whole buffer can be freed, not a slice of " + t.length + " bytes at "
                    + t.offset + ".");
        }
        t.memory.free();
    }

    @Override
    protected void begin(final CollectiveType collective, final long bytes, final DType type) {
        if (collective == CollectiveType.BARRIER) {
            transfers.operation(collective);
        } else {
            // a stream (nothing to reduce) wants shallow send buffers; broadcast streams as the options say
            transfers.operation(collective, collective == CollectiveType.BROADCAST ? broadcastStreams
                    : !collective.reduces());
        }
    }

    @Override
    protected HostBuffer in(final CommBuffer buffer, final int bytes, final DType type) {
        return check(buffer, bytes, type);
    }

    @Override
    protected HostBuffer out(final CommBuffer buffer, final int bytes, final DType type) {
        return check(buffer, bytes, type);
    }

    /** A send buffer that overlaps the receive buffer is copied to scratch memory first. */
    @Override
    protected HostBuffer apart(final HostBuffer send, final HostBuffer recv, final int bytes) {
        if (!send.overlaps(recv)) {
            return send;
        }
        final HostBuffer copy = scratch(bytes);
        transfers.copy(send, 0, copy, 0, bytes);
        return copy;
    }

    @Override
    protected void runAllReduce(final HostBuffer send, final HostBuffer recv, final long count, final DType type,
                                final ReduceOp op) {
        reducing.allReduce(send, recv, (int) count, type, op);
    }

    @Override
    protected void runAllGather(final HostBuffer send, final HostBuffer recv, final long sendCount,
                                final DType type) {
        moving.allGather(send, recv, (int) sendCount * type.bytes(), type.bytes());
    }

    @Override
    protected void runReduceScatter(final HostBuffer send, final HostBuffer recv, final long recvCount,
                                    final DType type, final ReduceOp op) {
        reducing.reduceScatter(send, recv, (int) recvCount, type, op);
    }

    @Override
    protected void runBroadcast(final HostBuffer send, final HostBuffer recv, final long count, final DType type,
                                final int root) {
        if (count > 0) {
            moving.broadcast(send, recv, (int) count * type.bytes(), type.bytes(), root);
        }
    }

    @Override
    protected void runReduce(final HostBuffer send, final HostBuffer recv, final long count, final DType type,
                             final ReduceOp op, final int root) {
        reducing.reduce(send, recv, (int) count, type, op, root);
    }

    @Override
    protected void runAllToAll(final HostBuffer send, final HostBuffer recv, final long countPerPeer,
                               final DType type) {
        if (countPerPeer > 0) {
            moving.allToAll(send, recv, (int) countPerPeer * type.bytes(), type.bytes());
        }
    }

    @Override
    protected void runAllToAllv(final HostBuffer send, final long[] sendCounts, final long[] sendDispls,
                                final HostBuffer recv, final long[] recvCounts, final long[] recvDispls,
                                final DType type) {
        moving.allToAllv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls, type.bytes());
    }

    @Override
    protected void runSendRecv(final HostBuffer send, final int sendPeer, final HostBuffer recv, final int recvPeer,
                               final long count, final DType type) {
        moving.sendRecv(send, sendPeer, recv, recvPeer, (int) count * type.bytes(), type.bytes());
    }

    @Override
    protected void runBarrier() {
        moving.barrier();
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
    HostBuffer scratch(final int bytes) {
        if (scratch.length < bytes) {
            // the old memory goes first, so growing never holds both (at 256 MiB that was 64 MiB more at the peak);
            // an empty buffer stands in meanwhile, so a failed allocation leaves nothing freed in use
            scratch.memory.free();
            scratch = HostBuffer.allocate(0);
            scratch = HostBuffer.allocate(bytes);
        }
        return scratch;
    }

    private HostBuffer check(final CommBuffer b, final int bytes, final DType type) {
        if (!(b instanceof HostBuffer t)) {
            throw CctkException.usage("the tcp backend runs only on the CPU backends' host buffers, not on " + b);
        }
        if (t.memory.freed()) {
            throw CctkException.usage("a buffer of " + t.length + " bytes was used after it was freed.");
        }
        if (t.length < bytes) {
            throw CctkException.usage("a buffer of " + t.length + " bytes is too small for " + bytes
                    + " bytes of " + type.specName() + ".");
        }
        if (t.offset % type.bytes() != 0) {
            throw CctkException.usage("a " + type.specName() + " buffer must start at a multiple of "
                    + type.bytes() + " bytes; this one starts at " + t.offset + ".");
        }
        return t;
    }
}
