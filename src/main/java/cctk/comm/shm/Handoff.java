package cctk.comm.shm;

import cctk.comm.CollectiveType;
import cctk.comm.DType;
import cctk.comm.HostBuffer;
import cctk.comm.HostMemory;
import java.util.Arrays;

/**
 * The handoffs of one collective through the control segments. A rank publishes where its buffers lie (slot,
 * generation, offset) and then bumps its epoch with a release store ({@link #arrive}); a peer that sees the epoch
 * (acquire) reads the descriptors and maps the buffers ({@link #snapshot}). Every rank bumps its epoch the same
 * number of times per collective, so targets agree without being sent. A rank leaves a collective only after every
 * rank that reads its buffers or descriptors has bumped its epoch past that reading, so a later collective never
 * overwrites what a slower peer is still to read.
 * <b>Note:</b> not threadsafe.
 */
final class Handoff {

    final int me;
    final int size;
    /** Per rank, the current collective's send and receive buffers, as this rank maps them, and byte offsets. */
    final HostMemory[] send;
    final int[] sendOff;
    final HostMemory[] recv;
    final int[] recvOff;
    private final Members members;
    private final ControlBlock mine;
    private final Waiter waiter;
    private final PeerSegments peers;
    private final OwnSegments own;
    private long epoch;

    Handoff(final Members members, final Waiter waiter, final PeerSegments peers, final OwnSegments own,
            final long epoch) {
        this.members = members;
        this.me = members.rank;
        this.size = members.size;
        this.mine = members.controls[me];
        this.waiter = waiter;
        this.peers = peers;
        this.own = own;
        this.epoch = epoch;
        this.send = new HostMemory[size];
        this.sendOff = new int[size];
        this.recv = new HostMemory[size];
        this.recvOff = new int[size];
    }

    /** Starts a collective: names it for error messages. */
    void begin(final CollectiveType collective, final long bytes, final DType type) {
        waiter.operation(collective.specName(), bytes, type);
    }

    /** Publishes this rank's buffers (null: none) for peers to read once it {@link #arrive}s. */
    void publish(final HostBuffer s, final HostBuffer r) {
        describe(0, s);
        describe(1, r);
        send[me] = s == null ? null : s.memory;
        sendOff[me] = s == null ? 0 : s.offset;
        recv[me] = r == null ? null : r.memory;
        recvOff[me] = r == null ? 0 : r.offset;
    }

    private void describe(final int which, final HostBuffer b) {
        if (b == null) {
            mine.descriptor(which, -1, 0, 0);
        } else {
            final OwnSegments.Segment s = OwnSegments.Segment.of(b);
            mine.descriptor(which, s.slot, s.gen, b.offset);
        }
    }

    /** Publishes alltoallv's send counts and displacements (elements). */
    void publishCounts(final long[] counts, final long[] displs) {
        for (int p = 0; p < size; p++) {
            mine.vCount(p, counts[p], displs[p], size);
        }
    }

    /** Bumps this rank's epoch (release) and returns it: what peers wait for. */
    long arrive() {
        mine.epochRelease(++epoch);
        return epoch;
    }

    /** Waits until every peer's epoch reaches {@code target}; {@code reading}: they are reading this rank's data. */
    void awaitAll(final long target, final boolean reading) {
        waiter.await(Waiter.EPOCH, -1, target, reading);
    }

    void await(final int peer, final long target, final boolean reading) {
        waiter.await(Waiter.EPOCH, peer, target, reading);
    }

    /** After {@code peer} has arrived: maps its published buffers. */
    void snapshot(final int peer) {
        peers.sync(peer);
        final ControlBlock c = members.controls[peer];
        final long ss = c.descriptorSlot(0);
        send[peer] = ss < 0 ? null : peers.view(peer, ss, c.descriptorGen(0));
        sendOff[peer] = (int) c.descriptorOffset(0);
        final long rs = c.descriptorSlot(1);
        recv[peer] = rs < 0 ? null : peers.view(peer, rs, c.descriptorGen(1));
        recvOff[peer] = (int) c.descriptorOffset(1);
    }

    void snapshotAll() {
        for (int p = 0; p < size; p++) {
            if (p != me) {
                snapshot(p);
            }
        }
    }

    /** alltoallv: how many elements {@code peer} sends this rank, and from where in its send buffer. */
    long countFrom(final int peer) {
        return members.controls[peer].vCount(me);
    }

    long displFrom(final int peer) {
        return members.controls[peer].vDispl(me, size);
    }

    /** Ends a collective: forgets the buffers, so that none stays reachable through this object. */
    void end() {
        Arrays.fill(send, null);
        Arrays.fill(recv, null);
    }
}
