package cctk.comm.tcp;

import cctk.CctkException;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.comm.Store;
import java.io.IOException;
import java.nio.channels.Selector;

/**
 * The tcp backend: a full mesh of TCP connections (one per NIC per peer pair) driven by one thread.
 * Reducing collectives are pipelined rings or chains ({@link ReducingAlgorithms}); all-gather, all-to-all(v)
 * and send/recv talk to every peer directly; broadcast is a pipelined chain; barrier is a dissemination barrier.
 * Buffers hold little-endian elements; offsets of buffers must be multiples of the element size.
 * <b>Note:</b> not threadsafe: one thread drives a communicator.
 */
public final class TcpCommunicator implements Communicator {

    private final int rank;
    private final int size;
    final Link[][] links;
    private final Selector selector;
    private final Transfers transfers;
    private final ReducingAlgorithms reducing;
    private final boolean broadcastStreams;
    private final TcpBuffer token = TcpBuffer.allocate(2);
    private TcpBuffer scratch = TcpBuffer.allocate(64);
    private boolean closed;

    private TcpCommunicator(final int rank, final int size, final Link[][] links, final Selector selector,
                            final TcpOptions options) {
        this.rank = rank;
        this.size = size;
        this.links = links;
        this.selector = selector;
        this.transfers = new Transfers(rank, links, options.stripes(), selector, options.deadline().toNanos(),
                HostTuning.spinNanos(options, size), HostTuning.streamSendBytes(options), options.socketBufferBytes());
        this.reducing = new ReducingAlgorithms(this, transfers);
        this.broadcastStreams = HostTuning.broadcastStreams(options, size);
    }

    /**
     * Meets the other ranks through {@code store} (keys under {@code options.keyPrefix()}), connects the mesh and
     * passes a barrier. Throws CctkException(ENVIRONMENT) naming the host, interface or peer when that fails.
     */
    public static TcpCommunicator connect(final TcpOptions options, final int rank, final int size,
                                          final Store store) {
        if (size < 1 || rank < 0 || rank >= size) {
            throw CctkException.usage("rank " + rank + " is not in a world of " + size + " ranks.");
        }
        final Link[][] links = TcpMesh.connect(options, rank, size, store);
        final Selector selector;
        try {
            selector = Selector.open();
            for (final Link[] row : links) {
                if (row != null) {
                    for (final Link l : row) {
                        l.channel.configureBlocking(false);
                        l.key = l.channel.register(selector, 0);
                    }
                }
            }
        } catch (final IOException e) {
            TcpMesh.closeAll(links);
            throw CctkException.environment("rank " + rank + " could not set up its socket selector: "
                    + e.getMessage(), e);
        }
        final TcpCommunicator comm = new TcpCommunicator(rank, size, links, selector, options);
        comm.barrier();
        if (rank == 0) {
            // every rank has dialled every lower rank once the barrier passed: nobody reads the endpoints again
            store.drop(TcpMesh.endpointsPrefix(options));
        }
        return comm;
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

    @Override
    public CommBuffer allocate(final long bytes) {
        if (bytes < 0 || bytes > Integer.MAX_VALUE - 8) {
            throw CctkException.usage("the tcp backend allocates buffers of 0 to 2 GiB; " + bytes
                    + " bytes were asked for.");
        }
        try {
            return TcpBuffer.allocate((int) bytes);
        } catch (final OutOfMemoryError e) {
            throw CctkException.environment("rank " + rank + " could not allocate " + bytes + " bytes of direct"
                    + " memory (raise -XX:MaxDirectMemorySize or use smaller messages).");
        }
    }

    /** Frees a buffer {@link #allocate} returned; its memory goes back at once (see {@link TcpBuffer}). */
    @Override
    public void free(final CommBuffer buffer) {
        final TcpBuffer t = tcp(buffer);
        if (!t.whole()) {
            throw CctkException.usage("only a whole buffer can be freed, not a slice of " + t.length + " bytes at "
                    + t.offset + ".");
        }
        t.memory.free();
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
        if (block == 0) {
            return;
        }
        for (int p = 0; p < size; p++) {
            if (p != rank) {
                transfers.send(p, s, 0, block, type.bytes());
                transfers.recv(p, r, p * block, block, type.bytes());
            }
        }
        transfers.await();
        // local blocks are copied after the exchange, so peers are not kept waiting for our first bytes
        transfers.copy(s, 0, r, rank * block, block);
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
        final int rel = Math.floorMod(rank - root, size);
        final int next = (rank + 1) % size;
        if (rel == 0) {
            final TcpBuffer s = check(send, 0, bytes, type);
            if (size > 1) {
                transfers.send(next, s, 0, bytes, type.bytes());
                transfers.await();
            }
            transfers.copy(s, 0, r, 0, bytes);
            return;
        }
        final int got = transfers.recv(Math.floorMod(rank - 1, size), r, 0, bytes, type.bytes());
        if (rel < size - 1) {
            transfers.forward(next, r, 0, bytes, type.bytes(), got);
        }
        transfers.await();
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
        for (int p = 0; p < size; p++) {
            if (p != rank) {
                transfers.send(p, s, p * block, block, type.bytes());
                transfers.recv(p, r, p * block, block, type.bytes());
            }
        }
        transfers.await();
        transfers.copy(s, rank * block, r, rank * block, block);
    }

    @Override
    public void allToAllv(final CommBuffer send, final long[] sendCounts, final long[] sendDispls,
                          final CommBuffer recv, final long[] recvCounts, final long[] recvDispls, final DType type) {
        transfers.operation("alltoallv", true);
        if (sendCounts.length != size || sendDispls.length != size || recvCounts.length != size
                || recvDispls.length != size) {
            throw CctkException.usage("alltoallv needs " + size + " counts and displacements per direction.");
        }
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
        for (int p = 0; p < size; p++) {
            if (p != rank) {
                transfers.send(p, s, (int) sendDispls[p] * unit, (int) sendCounts[p] * unit, unit);
                transfers.recv(p, r, (int) recvDispls[p] * unit, (int) recvCounts[p] * unit, unit);
            } else if (sendCounts[p] != recvCounts[p]) {
                throw CctkException.usage("alltoallv on rank " + rank + " sends " + sendCounts[p]
                        + " elements to itself but expects " + recvCounts[p] + ".");
            }
        }
        transfers.await();
        transfers.copy(s, (int) sendDispls[rank] * unit, r, (int) recvDispls[rank] * unit,
                (int) sendCounts[rank] * unit);
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
        if (sendPeer == rank) {
            transfers.copy(s, 0, r, 0, bytes);
            return;
        }
        // in place, the receive would overwrite bytes the socket has not yet taken
        final TcpBuffer from = s.overlaps(r) ? copyToScratch(s, bytes) : s;
        transfers.send(sendPeer, from, 0, bytes, type.bytes());
        transfers.recv(recvPeer, r, 0, bytes, type.bytes());
        transfers.await();
    }

    @Override
    public void barrier() {
        transfers.operation("barrier");
        for (int dist = 1; dist < size; dist <<= 1) {
            transfers.send((rank + dist) % size, token, 0, 1, 1);
            transfers.recv(Math.floorMod(rank - dist, size), token, 1, 1, 1);
            transfers.await();
        }
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
        TcpMesh.closeAll(links);
        transfers.free();
        scratch.memory.free();
        token.memory.free();
        try {
            selector.close();
        } catch (final IOException ignored) {
            // nothing left to release
        }
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

    private static TcpBuffer tcp(final CommBuffer b) {
        if (b instanceof TcpBuffer t) {
            return t;
        }
        throw CctkException.usage("the tcp backend only runs on buffers it allocated, not on " + b);
    }

    private static TcpBuffer check(final CommBuffer b, final int off, final int bytes, final DType type) {
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
