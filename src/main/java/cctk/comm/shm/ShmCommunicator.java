package cctk.comm.shm;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.comm.Store;
import java.nio.file.Path;

/**
 * The shm backend: ranks of one host run every collective through shared memory. {@link #allocate} puts each
 * buffer in its own segment file (0600, under a name derived from the job secret, in /dev/shm) that every member
 * maps, so collectives read peers' buffers where they lie: one copy per byte moved, reductions straight from every
 * rank's send buffer ({@link ReducingOps}, {@link MovingOps}, {@link PointToPoint}). Ranks hand off through small
 * control segments with release/acquire counters ({@link Handoff}); waits spin, yield, then park, and name a dead
 * peer within about a second and a stalled one at the deadline ({@link Waiter}). Files are unlinked once every peer
 * has mapped them, and a buffer's segment goes when {@link #free} (or close) frees it; {@link #cleanStale} removes
 * what killed jobs left. Buffers of other backends work too, copied through shared staging memory. Buffers hold
 * little-endian elements; offsets must be multiples of the element size.
 * <b>Note:</b> not threadsafe: one thread drives a communicator.
 */
public final class ShmCommunicator implements Communicator {

    private final ShmOptions options;
    private final Members members;
    private final OwnSegments own;
    private final PeerSegments peers;
    private final Handoff h;
    private final ReducingOps reducing;
    private final MovingOps moving;
    private final PointToPoint p2p;
    private final Staging staging;
    private CctkException failure;
    private boolean closed;
    private final Waiter waiter;

    private ShmCommunicator(final ShmOptions options, final Members members, final Waiter waiter) {
        this.waiter = waiter;
        this.options = options;
        this.members = members;
        this.own = new OwnSegments(members);
        this.peers = new PeerSegments(members);
        this.h = new Handoff(members, waiter, peers, own, 1);
        this.reducing = new ReducingOps(h);
        this.moving = new MovingOps(h);
        this.p2p = new PointToPoint(members, waiter, peers);
        this.staging = new Staging(own, peers);
    }

    /**
     * Meets the other {@code size - 1} members through {@code store} (keys under {@code options.keyPrefix()}), maps
     * their control segments and passes a first handoff. Member 0 first sweeps the directory for stale segments.
     * Throws CctkException(ENVIRONMENT) naming the rank and the cause when that fails.
     */
    public static ShmCommunicator connect(final ShmOptions options, final int rank, final int size,
                                          final Store store) {
        if (size < 1 || rank < 0 || rank >= size) {
            throw CctkException.usage("rank " + rank + " is not in a group of " + size + " ranks.");
        }
        if (rank == 0) {
            StaleSegments.clean(options.directory());
        }
        final Members members = Members.meet(options, rank, size, store);
        Waiter waiter = null;
        try {
            waiter = new Waiter(members, options.deadline().toNanos());
            waiter.operation("connect", -1, null);
            members.controls[rank].epochRelease(1);
            waiter.await(Waiter.EPOCH, -1, 1, false);
            members.unlinkOwn();
            return new ShmCommunicator(options, members, waiter);
        } catch (final RuntimeException e) {
            if (waiter != null) {
                waiter.close();
            }
            members.close();
            throw e;
        }
    }

    /**
     * Removes the segments that killed jobs left in {@code directory} (only this user's files of cctk's naming whose
     * creating process no longer runs); returns how many. For launchers and later runs; {@link #connect} runs it too.
     */
    public static int cleanStale(final Path directory) {
        return StaleSegments.clean(directory);
    }

    /**
     * For a rank about to halt without closing its communicators (a signal, its launcher gone): unlinks every segment
     * file this process made that is still in its directory, and removes there the segments of processes that no
     * longer run (a peer killed before every member had mapped its files). Peers keep what they have mapped. Returns
     * how many files went; never throws.
     */
    public static int releaseFiles() {
        return SegmentFiles.releaseOwn();
    }

    @Override
    public int rank() {
        return members.rank;
    }

    @Override
    public int size() {
        return members.size;
    }

    /** The name the options give: {@code shm}, or {@code tcp} where the CPU backend chose shared memory. */
    @Override
    public String backend() {
        return options.backend();
    }

    /** One line for the rank's header, e.g. "shm to ranks 1-3 (zero-copy; 4 segments, 64 MiB in /dev/shm)". */
    @Override
    public String transports() {
        final int[] peerRanks = new int[members.size];
        int n = 0;
        for (int p = 0; p < members.size; p++) {
            if (p != members.rank) {
                peerRanks[n++] = options.rankOf(p);
            }
        }
        return "shm to " + cctk.comm.RankList.of(peerRanks, n) + " (zero-copy; " + own.count() + " segments, "
                + ((own.liveBytes() + (1 << 19)) >> 20) + " MiB in " + members.dir + ")";
    }

    /** No NIC carries shared memory. */
    @Override
    public String carriers() {
        return "none";
    }

    /** Bytes of this rank's segments not yet freed, and peers' segments mapped now (for tests). */
    long liveBytes() {
        return own.liveBytes();
    }

    int peerMappings() {
        return peers.count();
    }

    @Override
    public CommBuffer allocate(final long bytes) {
        open();
        return own.allocate(bytes, peers);
    }

    /**
     * Frees a buffer {@link #allocate} returned (a whole one, not a slice): its segment is unmapped at once and
     * leaves the tmpfs once every peer has dropped its mapping (at the latest at their next allocation). Freeing a
     * buffer twice does nothing; using it afterwards fails.
     */
    @Override
    public void free(final CommBuffer buffer) {
        if (!(buffer instanceof ShmBuffer s) || s.owner != own) {
            throw CctkException.usage("the shm backend frees only buffers it allocated, not " + buffer + ".");
        }
        own.free(s);
    }

    @Override
    public void allReduce(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                          final ReduceOp op) {
        final int bytes = bytes(count, type);
        begin("all_reduce", bytes, type);
        try {
            final ShmBuffer r = staging.out(recv, bytes, type);
            reducing.allReduce(staging.in(send, bytes, type), r, (int) count, type, op);
            staging.flush(recv, r, 0, bytes);
        } catch (final CctkException e) {
            throw failed(e);
        } finally {
            h.end();
        }
    }

    @Override
    public void allGather(final CommBuffer send, final CommBuffer recv, final long sendCount, final DType type) {
        final int block = bytes(sendCount, type);
        final int total = bytes(sendCount * members.size, type);
        begin("all_gather", total, type);
        try {
            final ShmBuffer r = staging.out(recv, total, type);
            moving.allGather(staging.in(send, block, type), r, block);
            staging.flush(recv, r, 0, total);
        } catch (final CctkException e) {
            throw failed(e);
        } finally {
            h.end();
        }
    }

    @Override
    public void reduceScatter(final CommBuffer send, final CommBuffer recv, final long recvCount, final DType type,
                              final ReduceOp op) {
        final int block = bytes(recvCount, type);
        final int total = bytes(recvCount * members.size, type);
        begin("reduce_scatter", total, type);
        try {
            final ShmBuffer r = staging.out(recv, block, type);
            reducing.reduceScatter(staging.in(send, total, type), r, (int) recvCount, type, op);
            staging.flush(recv, r, 0, block);
        } catch (final CctkException e) {
            throw failed(e);
        } finally {
            h.end();
        }
    }

    @Override
    public void broadcast(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                          final int root) {
        checkPeer(root, "root");
        final int bytes = bytes(count, type);
        begin("broadcast", bytes, type);
        try {
            final ShmBuffer r = staging.out(recv, bytes, type);
            moving.broadcast(members.rank == root ? staging.in(send, bytes, type) : null, r, bytes, root);
            staging.flush(recv, r, 0, bytes);
        } catch (final CctkException e) {
            throw failed(e);
        } finally {
            h.end();
        }
    }

    @Override
    public void reduce(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                       final ReduceOp op, final int root) {
        checkPeer(root, "root");
        final int bytes = bytes(count, type);
        begin("reduce", bytes, type);
        try {
            final ShmBuffer s = staging.in(send, bytes, type);
            final ShmBuffer r = members.rank == root ? staging.out(recv, bytes, type) : null;
            reducing.reduce(s, r, (int) count, type, op, root);
            if (r != null) {
                staging.flush(recv, r, 0, bytes);
            }
        } catch (final CctkException e) {
            throw failed(e);
        } finally {
            h.end();
        }
    }

    @Override
    public void allToAll(final CommBuffer send, final CommBuffer recv, final long countPerPeer, final DType type) {
        final int block = bytes(countPerPeer, type);
        final int total = bytes(countPerPeer * members.size, type);
        begin("alltoall", total, type);
        try {
            final ShmBuffer r = staging.out(recv, total, type);
            ShmBuffer s = staging.in(send, total, type);
            if (s.overlaps(r)) { // peers would read blocks this rank overwrites
                s = staging.copyOf(s, total, 0);
            }
            moving.allToAll(s, r, block);
            staging.flush(recv, r, 0, total);
        } catch (final CctkException e) {
            throw failed(e);
        } finally {
            h.end();
        }
    }

    @Override
    public void allToAllv(final CommBuffer send, final long[] sendCounts, final long[] sendDispls,
                          final CommBuffer recv, final long[] recvCounts, final long[] recvDispls, final DType type) {
        cctk.comm.AllToAllvArgs.check(members.rank, members.size, sendCounts, sendDispls, recvCounts, recvDispls);
        final int sendEnd = bytes(MovingOps.extent(sendCounts, sendDispls), type);
        final int recvEnd = bytes(MovingOps.extent(recvCounts, recvDispls), type);
        begin("alltoallv", sendEnd, type);
        try {
            final ShmBuffer r = staging.out(recv, recvEnd, type);
            ShmBuffer s = staging.in(send, sendEnd, type);
            if (s.overlaps(r)) {
                s = staging.copyOf(s, sendEnd, 0);
            }
            moving.allToAllv(s, sendCounts, sendDispls, r, recvCounts, recvDispls, type.bytes());
            if (r != recv) {
                for (int p = 0; p < members.size; p++) { // only the blocks: the gaps between them keep their bytes
                    staging.copyOut(1, recv, (int) recvDispls[p] * type.bytes(), (int) recvCounts[p] * type.bytes());
                }
            }
        } catch (final CctkException e) {
            throw failed(e);
        } finally {
            h.end();
        }
    }

    @Override
    public void sendRecv(final CommBuffer send, final int sendPeer, final CommBuffer recv, final int recvPeer,
                         final long count, final DType type) {
        checkPeer(sendPeer, "send peer");
        checkPeer(recvPeer, "receive peer");
        if ((sendPeer == members.rank) != (recvPeer == members.rank)) {
            throw CctkException.usage("sendrecv on rank " + members.rank + " sends to rank " + sendPeer + " but"
                    + " receives from rank " + recvPeer + "; a rank can only pair with itself in both directions.");
        }
        final int bytes = bytes(count, type);
        begin("sendrecv", bytes, type);
        try {
            if (bytes == 0) {
                return;
            }
            final ShmBuffer r = staging.out(recv, bytes, type);
            ShmBuffer s = staging.in(send, bytes, type);
            if (sendPeer != members.rank && s.overlaps(r)) { // the receive would overwrite what the peer reads
                s = staging.copyOf(s, bytes, 0);
            }
            p2p.sendRecv(s, sendPeer, r, recvPeer, bytes);
            staging.flush(recv, r, 0, bytes);
        } catch (final CctkException e) {
            throw failed(e);
        } finally {
            h.end();
        }
    }

    @Override
    public void barrier() {
        begin("barrier", -1, null);
        try {
            moving.barrier();
        } catch (final CctkException e) {
            throw failed(e);
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
        waiter.close();
        own.close();
        peers.close();
        reducing.close();
        members.close();
        if (failure != null) {
            // a peer that died may have left files no member will map now
            StaleSegments.clean(members.dir);
        }
    }

    private void open() {
        if (closed) {
            throw CctkException.usage("this shm communicator of rank " + members.rank + " is closed.");
        }
    }

    private void begin(final String operation, final long bytes, final DType type) {
        open();
        if (failure != null) {
            throw new CctkException(failure.exitCode(), failure.getMessage(), failure); // its values with it
        }
        h.begin(operation, bytes, type);
    }

    /** Remembers an environment failure: the group is broken, every later call fails with it (words and values). */
    private CctkException failed(final CctkException e) {
        if (e.exitCode() == ExitCode.ENVIRONMENT && failure == null) {
            failure = e;
        }
        return e;
    }

    private void checkPeer(final int peer, final String what) {
        if (peer < 0 || peer >= members.size) {
            throw CctkException.usage(what + " " + peer + " is not a rank of this " + members.size
                    + "-rank communicator.");
        }
    }

    private static int bytes(final long count, final DType type) {
        final long b = count * type.bytes();
        if (count < 0 || b > OwnSegments.MAX_BYTES) {
            throw CctkException.usage("an element count of " + count + " " + type.specName() + " is out of range"
                    + " for the shm backend (0 to 2 GiB per buffer).");
        }
        return (int) b;
    }
}
