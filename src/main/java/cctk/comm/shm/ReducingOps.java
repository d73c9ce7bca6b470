package cctk.comm.shm;

import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.comm.Reductions;
import cctk.comm.Tuning;
import cctk.comm.HostBuffer;
import cctk.comm.HostMemory;

/**
 * All-reduce, reduce-scatter and reduce, zero-copy: each rank reduces its share straight from every rank's send
 * buffer into the output. All-reduce above {@link #DIRECT_MAX} bytes: rank r reduces block r into its own receive
 * buffer, then copies every other block from the rank that reduced it (three handoffs; every byte is reduced once,
 * so all ranks hold bit-identical results). Small all-reduce: every rank reduces the whole vector in rank order
 * (two handoffs). Reduce-scatter: rank r reduces block r. Reduce: rank r reduces block r into the root's receive
 * buffer, so the root's result is built by all ranks at once.
 * <b>Note:</b> not threadsafe.
 */
final class ReducingOps {

    /** Up to this many bytes, all-reduce reduces whole vectors on every rank instead of blocks. */
    static final int DIRECT_MAX = Tuning.fromSystemProperties().shmDirectMaxBytes();

    private final Handoff h;
    private final int me;
    private final int size;
    private HostMemory scratch = HostMemory.allocate(64);

    ReducingOps(final Handoff handoff) {
        this.h = handoff;
        this.me = handoff.me;
        this.size = handoff.size;
    }

    void allReduce(final HostBuffer s, final HostBuffer r, final int count, final DType type, final ReduceOp op) {
        if (count == 0) {
            return;
        }
        h.publish(s, r);
        if (size > 1 && (count * type.bytes() <= DIRECT_MAX || count < size)) {
            direct(s, r, count, type, op);
        } else {
            blocks(r, count, type, op);
        }
    }

    private void direct(final HostBuffer s, final HostBuffer r, final int count, final DType type, final ReduceOp op) {
        final int bytes = count * type.bytes();
        final long arrived = h.arrive();
        h.awaitAll(arrived, false);
        h.snapshotAll();
        // in place, peers may still read the send buffer: reduce aside, copy back once they are done
        final boolean aside = s.overlaps(r);
        final HostMemory out = aside ? scratch(bytes) : r.memory;
        final int at = aside ? 0 : r.offset;
        Kernels.reduceChain(type, op, out, at, h.send, h.sendOff, 0, 0, size, count);
        if (op == ReduceOp.AVG) {
            Reductions.divide(type, out.typed(type), at / type.bytes(), count, size);
        }
        final long done = h.arrive();
        h.awaitAll(done, true);
        if (aside) {
            r.memory.copyFrom(r.offset, out, 0, bytes);
        }
    }

    private void blocks(final HostBuffer r, final int count, final DType type, final ReduceOp op) {
        final int unit = type.bytes();
        final long arrived = h.arrive();
        h.awaitAll(arrived, false);
        h.snapshotAll();
        final int first = Kernels.start(count, me, size);
        final int n = Kernels.length(count, me, size);
        Kernels.reduceChain(type, op, r.memory, r.offset + first * unit, h.send, h.sendOff, first * unit, me, size, n);
        if (op == ReduceOp.AVG) {
            Reductions.divide(type, r.memory.typed(type), r.offset / unit + first, n, size);
        }
        final long reduced = h.arrive();
        for (int k = 1; k < size; k++) {
            final int p = (me + k) % size;
            h.await(p, reduced, false);
            final int at = Kernels.start(count, p, size) * unit;
            r.memory.copyFrom(r.offset + at, h.recv[p], h.recvOff[p] + at, Kernels.length(count, p, size) * unit);
        }
        final long done = h.arrive();
        h.awaitAll(done, true);
    }

    void reduceScatter(final HostBuffer s, final HostBuffer r, final int recvCount, final DType type,
                       final ReduceOp op) {
        if (recvCount == 0) {
            return;
        }
        final int unit = type.bytes();
        h.publish(s, r);
        final long arrived = h.arrive();
        h.awaitAll(arrived, false);
        h.snapshotAll();
        // in place, the output is this rank's own block of its send buffer: the chain starts there
        Kernels.reduceChain(type, op, r.memory, r.offset, h.send, h.sendOff, me * recvCount * unit, me, size,
                recvCount);
        if (op == ReduceOp.AVG) {
            Reductions.divide(type, r.memory.typed(type), r.offset / unit, recvCount, size);
        }
        final long done = h.arrive();
        h.awaitAll(done, true);
    }

    /** {@code r} is the root's receive buffer on the root and ignored elsewhere. */
    void reduce(final HostBuffer s, final HostBuffer r, final int count, final DType type, final ReduceOp op,
                final int root) {
        if (count == 0) {
            return;
        }
        final int unit = type.bytes();
        h.publish(s, me == root ? r : null);
        final long arrived = h.arrive();
        h.awaitAll(arrived, false);
        h.snapshotAll();
        final int first = Kernels.start(count, me, size);
        final int n = Kernels.length(count, me, size);
        final HostMemory out = h.recv[root];
        final int at = h.recvOff[root] + first * unit;
        Kernels.reduceChain(type, op, out, at, h.send, h.sendOff, first * unit, root, size, n);
        if (op == ReduceOp.AVG) {
            Reductions.divide(type, out.typed(type), at / unit, n, size);
        }
        final long done = h.arrive();
        h.awaitAll(done, true);
    }

    /**
     * Private memory of at least {@code bytes}, kept and grown across calls (allocates only to grow; the outgrown
     * memory goes back at once).
     */
    private HostMemory scratch(final int bytes) {
        if (scratch.bytes() < bytes) {
            final int grown = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(bytes, 2L * scratch.bytes()));
            final HostMemory old = scratch;
            scratch = HostMemory.allocate(grown);
            old.free();
        }
        return scratch;
    }

    /** Gives the scratch memory back (the communicator is closing). */
    void close() {
        scratch.free();
    }
}
