package cctk.comm.shm;

import cctk.CctkException;
import cctk.comm.HostBuffer;

/**
 * All-gather, broadcast, all-to-all and all-to-all-v, zero-copy: every rank copies what it receives straight from
 * the sender's buffer into its own, one copy per byte, starting with the next rank up so that ranks do not all read
 * the same peer first. Broadcast: every rank copies from the root; only the root waits for the others to finish.
 * <b>Note:</b> not threadsafe.
 */
final class MovingOps {

    private final Handoff h;
    private final int me;
    private final int size;

    MovingOps(final Handoff handoff) {
        this.h = handoff;
        this.me = handoff.me;
        this.size = handoff.size;
    }

    void allGather(final HostBuffer s, final HostBuffer r, final int block) {
        if (block == 0) {
            return;
        }
        h.publish(s, r);
        final long arrived = h.arrive();
        // this rank's own block first: work done while the peers arrive (nothing to do in place)
        r.memory.copyFrom(r.offset + me * block, s.memory, s.offset, block);
        for (int k = 1; k < size; k++) {
            final int p = (me + k) % size;
            h.await(p, arrived, false);
            h.snapshot(p);
            r.memory.copyFrom(r.offset + p * block, h.send[p], h.sendOff[p], block);
        }
        final long done = h.arrive();
        h.awaitAll(done, true);
    }

    void broadcast(final HostBuffer s, final HostBuffer r, final int bytes, final int root) {
        if (bytes == 0) {
            return;
        }
        h.publish(me == root ? s : null, r);
        final long arrived = h.arrive();
        if (me == root) {
            r.memory.copyFrom(r.offset, s.memory, s.offset, bytes);
            final long done = h.arrive();
            h.awaitAll(done, true);
            return;
        }
        h.await(root, arrived, false);
        h.snapshot(root);
        r.memory.copyFrom(r.offset, h.send[root], h.sendOff[root], bytes);
        h.arrive(); // nobody reads this rank's buffers: it leaves at once
    }

    /** {@code s} must not overlap {@code r} (the caller stages it). */
    void allToAll(final HostBuffer s, final HostBuffer r, final int block) {
        if (block == 0) {
            return;
        }
        h.publish(s, r);
        final long arrived = h.arrive();
        // this rank's own block first: work done while the peers arrive
        r.memory.copyFrom(r.offset + me * block, s.memory, s.offset + me * block, block);
        for (int k = 1; k < size; k++) {
            final int p = (me + k) % size;
            h.await(p, arrived, false);
            h.snapshot(p);
            r.memory.copyFrom(r.offset + p * block, h.send[p], h.sendOff[p] + me * block, block);
        }
        final long done = h.arrive();
        h.awaitAll(done, true);
    }

    /** Counts and displacements in elements of {@code unit} bytes; {@code s} must not overlap {@code r}. */
    void allToAllv(final HostBuffer s, final long[] sendCounts, final long[] sendDispls, final HostBuffer r,
                   final long[] recvCounts, final long[] recvDispls, final int unit) {
        h.publish(s, r);
        h.publishCounts(sendCounts, sendDispls);
        final long arrived = h.arrive();
        int mismatch = -1;
        long mismatched = 0;
        for (int k = 1; k < size; k++) {
            final int p = (me + k) % size;
            h.await(p, arrived, false);
            h.snapshot(p);
            final long n = h.countFrom(p);
            if (n != recvCounts[p]) {
                mismatch = p; // finish the handoffs first, so that no peer is left waiting
                mismatched = n;
                continue;
            }
            r.memory.copyFrom(r.offset + (int) recvDispls[p] * unit, h.send[p],
                    h.sendOff[p] + (int) h.displFrom(p) * unit, (int) n * unit);
        }
        r.memory.copyFrom(r.offset + (int) recvDispls[me] * unit, s.memory, s.offset + (int) sendDispls[me] * unit,
                (int) sendCounts[me] * unit);
        final long done = h.arrive();
        h.awaitAll(done, true);
        if (mismatch >= 0) {
            throw CctkException.usage("alltoallv: rank " + mismatch + " sends " + mismatched
                    + " elements to rank " + me + ", which expects " + recvCounts[mismatch] + ".");
        }
    }

    void barrier() {
        h.awaitAll(h.arrive(), false);
    }
}
