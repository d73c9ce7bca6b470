package cctk.comm.shm;

import cctk.CctkException;
import cctk.comm.HostBuffer;
import cctk.comm.HostMemory;

/**
 * Send/receive between two ranks, independent of the collectives' epochs (only the pair takes part). The sender
 * describes its buffer in its control line for the receiver and bumps its count of sends to it (release); the
 * receiver copies straight from the sender's buffer and bumps its count of that sender's sends consumed; the sender
 * returns once its send is consumed. Every rank posts its send before it waits for its receive, so rings and pairs
 * never deadlock. <b>Note:</b> not threadsafe.
 */
final class PointToPoint {

    private final Members members;
    private final Waiter waiter;
    private final PeerSegments peers;
    private final ControlBlock mine;
    private final int me;
    private final long[] sent;
    private final long[] consumed;

    PointToPoint(final Members members, final Waiter waiter, final PeerSegments peers) {
        this.members = members;
        this.waiter = waiter;
        this.peers = peers;
        this.me = members.rank;
        this.mine = members.controls[me];
        this.sent = new long[members.size];
        this.consumed = new long[members.size];
    }

    /** {@code s} must not overlap {@code r} unless both peers are this rank (the caller stages it). */
    void sendRecv(final HostBuffer s, final int to, final HostBuffer r, final int from, final int bytes) {
        if (to == me) {
            r.memory.copyFrom(r.offset, s.memory, s.offset, bytes);
            return;
        }
        sent[to]++;
        final OwnSegments.Segment segment = OwnSegments.Segment.of(s);
        mine.postSend(to, sent[to], segment.slot, segment.gen, s.offset, bytes);
        waiter.await(Waiter.SENDS, from, consumed[from] + 1, false);
        final ControlBlock theirs = members.controls[from];
        final long length = theirs.sendLength(me);
        if (length == bytes) {
            final HostMemory src = peers.view(from, theirs.sendSlot(me), theirs.sendGen(me));
            r.memory.copyFrom(r.offset, src, (int) theirs.sendOffset(me), bytes);
        }
        consumed[from]++;
        mine.consumedRelease(from, consumed[from]);
        waiter.await(Waiter.CONSUMED, to, sent[to], true);
        if (length != bytes) {
            throw CctkException.usage("sendrecv: " + members.label(from) + " sent " + length + " bytes to "
                    + members.label(me) + ", which expected " + bytes + ".");
        }
    }
}
