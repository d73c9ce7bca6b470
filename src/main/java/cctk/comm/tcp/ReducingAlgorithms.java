package cctk.comm.tcp;

import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.comm.Reductions;
import cctk.comm.Tuning;
import cctk.comm.HostBuffer;

/**
 * All-reduce, reduce-scatter and reduce over the mesh. Large all-reduce is a ring reduce-scatter followed by a ring
 * all-gather with every step posted at once: each step forwards the previous step's block as soon as it has been
 * reduced (pieces of {@link Transfers#REDUCE_PIECE}), so reduction overlaps communication across steps. Small
 * all-reduce sends the whole buffer to every peer and reduces in rank order (one round trip; every rank computes
 * bit-identical results) up to {@link Peers#direct} ranks, and runs the ring beyond, so that a rank connects two
 * peers instead of W - 1. Reduce is a pipelined chain towards the root. Each connects its peers first.
 * <b>Note:</b> not threadsafe.
 */
final class ReducingAlgorithms {

    /** Up to this many bytes, all-reduce exchanges whole buffers directly instead of running the ring. */
    static final int DIRECT_MAX = Tuning.fromSystemProperties().directMaxBytes();

    private final TcpCommunicator comm;
    private final Transfers t;
    private final Peers peers;
    private final int rank;
    private final int size;

    ReducingAlgorithms(final TcpCommunicator comm, final Transfers transfers, final Peers peers) {
        this.comm = comm;
        this.t = transfers;
        this.peers = peers;
        this.rank = comm.rank();
        this.size = comm.size();
    }

    void allReduce(final HostBuffer s, final HostBuffer r, final int count, final DType type, final ReduceOp op) {
        final int unit = type.bytes();
        if (count == 0) {
            return;
        }
        if (size == 1) {
            t.copy(s, 0, r, 0, count * unit);
        } else if ((count * unit <= DIRECT_MAX || count < size) && peers.direct()) {
            peers.all();
            direct(s, r, count, type, op);
        } else {
            peers.ring();
            ring(s, r, count, type, op);
            return;
        }
        if (op == ReduceOp.AVG) {
            Reductions.divide(type, r.memory.typed(type), r.offset / unit, count, size);
        }
    }

    private void direct(final HostBuffer s, final HostBuffer r, final int count, final DType type, final ReduceOp op) {
        final int unit = type.bytes();
        final int bytes = count * unit;
        final HostBuffer all = comm.scratch(size * bytes);
        for (int p = 0; p < size; p++) {
            if (p != rank) {
                t.send(p, s, 0, bytes, unit);
                t.recv(p, all, p * bytes, bytes, unit);
            }
        }
        t.copy(s, 0, all, rank * bytes, bytes);
        t.await();
        final int base = all.offset / unit;
        Reductions.reduce(type, op, r.memory.typed(type), r.offset / unit, all.memory.typed(type), base,
                all.memory.typed(type), base + count, count);
        for (int p = 2; p < size; p++) {
            Reductions.reduce(type, op, r.memory.typed(type), r.offset / unit, r.memory.typed(type),
                    r.offset / unit, all.memory.typed(type), base + p * count, count);
        }
    }

    private void ring(final HostBuffer s, final HostBuffer r, final int count, final DType type, final ReduceOp op) {
        final int unit = type.bytes();
        final int right = (rank + 1) % size;
        final int left = Math.floorMod(rank - 1, size);
        int last = -1;
        for (int k = 0; k < size - 1; k++) {
            final int sb = Math.floorMod(rank - k, size);
            final int rb = Math.floorMod(rank - k - 1, size);
            if (k == 0) {
                t.send(right, s, start(count, sb) * unit, length(count, sb) * unit, unit);
            } else {
                t.forward(right, r, start(count, sb) * unit, length(count, sb) * unit, unit, last);
            }
            final int at = start(count, rb) * unit;
            last = t.recvReduce(left, r, at, s, at, length(count, rb) * unit, type, op);
        }
        final int owned = (rank + 1) % size;
        if (op == ReduceOp.AVG) {
            t.await();
            Reductions.divide(type, r.memory.typed(type), r.offset / unit + start(count, owned),
                    length(count, owned), size);
            last = -1;
        }
        for (int k = 0; k < size - 1; k++) {
            final int sb = Math.floorMod(rank + 1 - k, size);
            final int rb = Math.floorMod(rank - k, size);
            if (last < 0) {
                t.send(right, r, start(count, sb) * unit, length(count, sb) * unit, unit);
            } else {
                t.forward(right, r, start(count, sb) * unit, length(count, sb) * unit, unit, last);
            }
            last = t.recv(left, r, start(count, rb) * unit, length(count, rb) * unit, unit);
        }
        t.await();
    }

    /** Ring reduce-scatter: step k forwards what step k-1 reduced; the last step lands block {@code rank}. */
    void reduceScatter(final HostBuffer s, final HostBuffer r, final int recvCount, final DType type,
                       final ReduceOp op) {
        final int unit = type.bytes();
        final int block = recvCount * unit;
        if (block == 0) {
            return;
        }
        if (size == 1) {
            t.copy(s, 0, r, 0, block);
        } else {
            peers.ring();
            final int right = (rank + 1) % size;
            final int left = Math.floorMod(rank - 1, size);
            // one reduced block per intermediate step, for the next step to forward
            final HostBuffer tmp = comm.scratch((size - 2) * block);
            int last = -1;
            for (int k = 0; k < size - 1; k++) {
                final int sb = Math.floorMod(rank - k - 1, size);
                final int rb = Math.floorMod(rank - k - 2, size);
                if (k == 0) {
                    t.send(right, s, sb * block, block, unit);
                } else {
                    t.forward(right, tmp, (k - 1) * block, block, unit, last);
                }
                final boolean lastStep = k == size - 2;
                last = t.recvReduce(left, lastStep ? r : tmp, lastStep ? 0 : k * block, s, rb * block, block, type,
                        op);
            }
            t.await();
        }
        if (op == ReduceOp.AVG) {
            Reductions.divide(type, r.memory.typed(type), r.offset / unit, recvCount, size);
        }
    }

    /** Chain reduce: the rank farthest from the root sends, each rank reduces and forwards piece by piece. */
    void reduce(final HostBuffer s, final HostBuffer r, final int count, final DType type, final ReduceOp op,
                final int root) {
        final int unit = type.bytes();
        final int bytes = count * unit;
        if (bytes == 0) {
            return;
        }
        final int rel = Math.floorMod(rank - root, size);
        final int towardRoot = Math.floorMod(rank - 1, size);
        if (size > 1) {
            peers.ring();
        }
        if (size == 1) {
            t.copy(s, 0, r, 0, bytes);
        } else if (rel == size - 1) {
            t.send(towardRoot, s, 0, bytes, unit);
            t.await();
        } else {
            final HostBuffer out = rel == 0 ? r : comm.scratch(bytes);
            final int got = t.recvReduce((rank + 1) % size, out, 0, s, 0, bytes, type, op);
            if (rel > 0) {
                t.forward(towardRoot, out, 0, bytes, unit, got);
            }
            t.await();
        }
        if (rel == 0 && op == ReduceOp.AVG) {
            Reductions.divide(type, r.memory.typed(type), r.offset / unit, count, size);
        }
    }

    /** First element of ring block {@code block}: the first {@code count % size} blocks get one extra. */
    private int start(final int count, final int block) {
        return block * (count / size) + Math.min(block, count % size);
    }

    private int length(final int count, final int block) {
        return count / size + (block < count % size ? 1 : 0);
    }
}
