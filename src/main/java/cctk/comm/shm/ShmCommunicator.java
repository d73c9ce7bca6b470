package cctk.comm.shm;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.comm.CollectiveType;
import cctk.comm.CommBuffer;
import cctk.comm.HostCommunicator;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.comm.Store;
import cctk.comm.HostBuffer;
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
 * {@link HostCommunicator} checks the arguments and frames each collective (staging through {@link Staging}, a
 * failure that breaks the group kept for every later call); the bodies here only move bytes.
 * <b>Note:</b> not threadsafe: one thread drives a communicator.
 */
public final class ShmCommunicator extends HostCommunicator<HostBuffer> {

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
        super(members.rank, members.size, "shm", OwnSegments.MAX_BYTES);
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
        final OwnSegments.Segment s = own.segment(buffer);
        if (s == null) {
            throw CctkException.usage("the shm backend frees only buffers it allocated, not " + buffer + ".");
        }
        own.free((HostBuffer) buffer, s);
    }

    /** Refuses a call on a closed communicator or a broken group (with the failure's words and values). */
    @Override
    protected void begin(final CollectiveType collective, final long bytes, final DType type) {
        open();
        if (failure != null) {
            throw new CctkException(failure.exitCode(), failure.getMessage(), failure); // its values with it
        }
        h.begin(collective, bytes, type);
    }

    @Override
    protected void end() {
        h.end();
    }

    /** Remembers an environment failure: the group is broken, every later call fails with it (words and values). */
    @Override
    protected CctkException failed(final CctkException e) {
        if (e.exitCode() == ExitCode.ENVIRONMENT && failure == null) {
            failure = e;
        }
        return e;
    }

    @Override
    protected HostBuffer in(final CommBuffer buffer, final int bytes, final DType type) {
        return staging.in(buffer, bytes, type);
    }

    @Override
    protected HostBuffer out(final CommBuffer buffer, final int bytes, final DType type) {
        return staging.out(buffer, bytes, type);
    }

    @Override
    protected void flush(final CommBuffer target, final HostBuffer used, final int offset, final int bytes) {
        staging.flush(target, used, offset, bytes);
    }

    /** Peers would read blocks this rank overwrites: they read a copy in staging instead. */
    @Override
    protected HostBuffer apart(final HostBuffer send, final HostBuffer recv, final int bytes) {
        return send.overlaps(recv) ? staging.copyOf(send, bytes, 0) : send;
    }

    @Override
    protected void runAllReduce(final HostBuffer send, final HostBuffer recv, final long count, final DType type,
                                final ReduceOp op) {
        reducing.allReduce(send, recv, (int) count, type, op);
    }

    @Override
    protected void runAllGather(final HostBuffer send, final HostBuffer recv, final long sendCount,
                                final DType type) {
        moving.allGather(send, recv, (int) sendCount * type.bytes());
    }

    @Override
    protected void runReduceScatter(final HostBuffer send, final HostBuffer recv, final long recvCount,
                                    final DType type, final ReduceOp op) {
        reducing.reduceScatter(send, recv, (int) recvCount, type, op);
    }

    @Override
    protected void runBroadcast(final HostBuffer send, final HostBuffer recv, final long count, final DType type,
                                final int root) {
        moving.broadcast(send, recv, (int) count * type.bytes(), root);
    }

    @Override
    protected void runReduce(final HostBuffer send, final HostBuffer recv, final long count, final DType type,
                             final ReduceOp op, final int root) {
        reducing.reduce(send, recv, (int) count, type, op, root);
    }

    @Override
    protected void runAllToAll(final HostBuffer send, final HostBuffer recv, final long countPerPeer,
                               final DType type) {
        moving.allToAll(send, recv, (int) countPerPeer * type.bytes());
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
        if (count > 0) {
            p2p.sendRecv(send, sendPeer, recv, recvPeer, (int) count * type.bytes());
        }
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
}
