package cctk.comm.tcp;

import cctk.comm.HostBuffer;

/**
 * The collectives that only move data. All-gather: up to {@link Peers#direct} ranks every rank sends its block to
 * every peer at once; beyond, a pipelined ring (each step forwards the block the previous step received, as its
 * bytes arrive), so a rank connects two peers instead of W - 1. Broadcast: a pipelined chain from the root.
 * All-to-all(v): every peer directly. Send/recv: the two peers. Barrier: dissemination, ⌈log₂ W⌉ rounds.
 * Each connects the peers it uses first ({@link Peers}).
 * <b>Note:</b> not threadsafe.
 */
final class MovingAlgorithms {

    private final Transfers t;
    private final Peers peers;
    private final int rank;
    private final int size;
    private final HostBuffer token = HostBuffer.allocate(2);

    MovingAlgorithms(final Transfers transfers, final Peers peers, final int rank, final int size) {
        this.t = transfers;
        this.peers = peers;
        this.rank = rank;
        this.size = size;
    }

    void allGather(final HostBuffer s, final HostBuffer r, final int block, final int unit) {
        if (block == 0) {
            return;
        }
        if (peers.direct()) {
            peers.all();
            for (int p = 0; p < size; p++) {
                if (p != rank) {
                    t.send(p, s, 0, block, unit);
                    t.recv(p, r, p * block, block, unit);
                }
            }
        } else {
            peers.ring();
            final int right = (rank + 1) % size;
            final int left = Math.floorMod(rank - 1, size);
            int last = -1;
            for (int k = 0; k < size - 1; k++) {
                final int sb = Math.floorMod(rank - k, size);
                final int rb = Math.floorMod(rank - k - 1, size);
                if (k == 0) {
                    t.send(right, s, 0, block, unit);
                } else {
                    t.forward(right, r, sb * block, block, unit, last);
                }
                last = t.recv(left, r, rb * block, block, unit);
            }
        }
        t.await();
        // local blocks are copied after the exchange, so peers are not kept waiting for our first bytes
        t.copy(s, 0, r, rank * block, block);
    }

    void broadcast(final HostBuffer s, final HostBuffer r, final int bytes, final int unit, final int root) {
        final int rel = Math.floorMod(rank - root, size);
        final int next = (rank + 1) % size;
        if (size > 1) {
            peers.ring();
        }
        if (rel == 0) {
            if (size > 1) {
                t.send(next, s, 0, bytes, unit);
                t.await();
            }
            t.copy(s, 0, r, 0, bytes);
            return;
        }
        final int got = t.recv(Math.floorMod(rank - 1, size), r, 0, bytes, unit);
        if (rel < size - 1) {
            t.forward(next, r, 0, bytes, unit, got);
        }
        t.await();
    }

    /** {@code s} must not overlap {@code r}. */
    void allToAll(final HostBuffer s, final HostBuffer r, final int block, final int unit) {
        peers.all();
        for (int p = 0; p < size; p++) {
            if (p != rank) {
                t.send(p, s, p * block, block, unit);
                t.recv(p, r, p * block, block, unit);
            }
        }
        t.await();
        t.copy(s, rank * block, r, rank * block, block);
    }

    /** Counts and displacements in elements of {@code unit} bytes; {@code s} must not overlap {@code r}. */
    void allToAllv(final HostBuffer s, final long[] sendCounts, final long[] sendDispls, final HostBuffer r,
                   final long[] recvCounts, final long[] recvDispls, final int unit) {
        peers.all();
        for (int p = 0; p < size; p++) {
            if (p != rank) {
                t.send(p, s, (int) sendDispls[p] * unit, (int) sendCounts[p] * unit, unit);
                t.recv(p, r, (int) recvDispls[p] * unit, (int) recvCounts[p] * unit, unit);
            }
        }
        t.await();
        t.copy(s, (int) sendDispls[rank] * unit, r, (int) recvDispls[rank] * unit, (int) sendCounts[rank] * unit);
    }

    /** {@code s} must not overlap {@code r} unless both peers are this rank. */
    void sendRecv(final HostBuffer s, final int to, final HostBuffer r, final int from, final int bytes,
                  final int unit) {
        if (to == rank) {
            t.copy(s, 0, r, 0, bytes);
            return;
        }
        peers.pair(to, from);
        t.send(to, s, 0, bytes, unit);
        t.recv(from, r, 0, bytes, unit);
        t.await();
    }

    void barrier() {
        if (size > 1) {
            peers.barrier();
        }
        for (int dist = 1; dist < size; dist <<= 1) {
            t.send((rank + dist) % size, token, 0, 1, 1);
            t.recv(Math.floorMod(rank - dist, size), token, 1, 1, 1);
            t.await();
        }
    }

    void free() {
        token.memory.free();
    }
}
