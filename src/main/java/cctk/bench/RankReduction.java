package cctk.bench;

import cctk.coll.Elements;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import java.nio.ByteBuffer;

/**
 * An all-reduce of a few numbers over the job's own communicator with any combination rule, in O(log W) steps:
 * recursive doubling over {@link Communicator#sendRecv} (the ranks above the largest power of two P first fold
 * into ranks 0..W-P-1 and get the result back at the end), so the rule may mix max, min and sum per slot, or keep
 * whole records (the slowest rank's). Every rank calls {@code sendRecv} once per step, pairing with itself when it
 * has no partner, so backends whose send/recv is a collective of all ranks (the test fixture's) take part too.
 * Rank 0 learns a point's figures this way without a round trip per rank through the store. Buffers are
 * allocated once; a reduction allocates nothing.
 * <b>Note:</b> not threadsafe: the sweep's thread.
 */
final class RankReduction implements AutoCloseable {

    /** How two ranks' vectors combine; must be commutative and associative for the result to be the same on all. */
    @FunctionalInterface
    interface Rule {
        /** {@code into = into ∘ other}, over the first {@code length} slots. */
        void combine(double[] into, double[] other, int length);
    }

    private final Communicator comm;
    private final int capacity;
    private final CommBuffer send;
    private final CommBuffer recv;
    private final ByteBuffer host;
    private final double[] theirs;
    private long steps;

    /** A reduction of at most {@code capacity} numbers. */
    RankReduction(final Communicator comm, final int capacity) {
        this.comm = comm;
        this.capacity = capacity;
        this.send = comm.allocate(8L * capacity);
        this.recv = comm.allocate(8L * capacity);
        this.host = ByteBuffer.allocate(8 * capacity).order(Elements.ORDER);
        this.theirs = new double[capacity];
    }

    /** Combines {@code mine}'s first {@code length} numbers over all ranks by {@code rule}; every rank gets them. */
    void allReduce(final double[] mine, final int length, final Rule rule) {
        if (length > capacity) {
            throw new IllegalArgumentException(length + " numbers, capacity " + capacity);
        }
        final int w = comm.size();
        final int r = comm.rank();
        final int p2 = Integer.highestOneBit(w);
        final int extra = w - p2;
        if (extra > 0) {
            // ranks P.. hand their numbers to ranks 0..extra-1
            final int partner = r >= p2 ? r - p2 : r < extra ? r + p2 : r;
            exchange(mine, length, partner);
            if (r < extra) {
                rule.combine(mine, theirs, length);
            }
        }
        for (int mask = 1; mask < p2; mask <<= 1) {
            final int partner = r < p2 ? r ^ mask : r;
            exchange(mine, length, partner);
            if (r < p2) {
                rule.combine(mine, theirs, length);
            }
        }
        if (extra > 0) {
            final int partner = r >= p2 ? r - p2 : r < extra ? r + p2 : r;
            exchange(mine, length, partner);
            if (r >= p2) {
                System.arraycopy(theirs, 0, mine, 0, length);
            }
        }
    }

    /** Steps this rank took so far (sendRecv calls), for the cost model's test. */
    long steps() {
        return steps;
    }

    /** Sends {@code mine} to {@code partner} and receives its numbers into {@link #theirs}. */
    private void exchange(final double[] mine, final int length, final int partner) {
        host.clear(); // a longer vector than the last one (a loop that ran more iterations) fits again
        for (int i = 0; i < length; i++) {
            host.putDouble(8 * i, mine[i]);
        }
        host.position(0).limit(8 * length);
        send.upload(host, 0);
        comm.sendRecv(send, partner, recv, partner, length, DType.FLOAT64);
        comm.synchronize();
        host.position(0).limit(8 * length);
        recv.download(0, host);
        for (int i = 0; i < length; i++) {
            theirs[i] = host.getDouble(8 * i);
        }
        steps++;
    }

    @Override
    public void close() {
        comm.free(send);
        comm.free(recv);
    }
}
