package cctk.bench;

import cctk.coll.Case;
import cctk.coll.Collective;
import cctk.coll.Elements;
import cctk.coll.Layout;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.IterationTimer;
import cctk.comm.ReduceOp;
import cctk.spec.Benchmark;
import java.nio.ByteBuffer;

/**
 * One rank's part of one measurement: buffers, warm-up, barrier, timed iterations (by the communicator's
 * {@link IterationTimer}, else each timed alone: call plus synchronize), then check iterations with fresh
 * inputs and poisoned outputs.
 * <b>Note:</b> not threadsafe.
 */
final class MeasureStep {

    /**
     * Per-iteration times of one rank, in µs, its wrong elements (-1: not checked), the time it spent filling,
     * poisoning and checking buffers (ns, System.nanoTime) and the bytes it checked.
     */
    record Result(double[] timesUs, long wrong, long fillCheckNanos, long checkedBytes) {

        /** A result without fill and check figures (as other ranks report it). */
        Result(final double[] timesUs, final long wrong) {
            this(timesUs, wrong, 0, 0);
        }
    }

    private final Communicator comm;
    private final Benchmark bench;
    private final BufferData data;
    private final IterationTimer timer;
    private CommBuffer voteSend;
    private CommBuffer voteRecv;

    MeasureStep(final Communicator comm, final Benchmark bench, final BufferData data) {
        this.comm = comm;
        this.bench = bench;
        this.data = data;
        this.timer = IterationTimer.of(comm);
    }

    /**
     * {send, recv}: two buffers, or slices of one for in-place; a slice that covers the whole buffer is the
     * buffer itself, and send is recv when both cover the same bytes, so backends can test identity.
     */
    CommBuffer[] allocate(final Layout l, final boolean inPlace) {
        if (!inPlace) {
            final CommBuffer send = comm.allocate(Math.max(1, l.sendBytes())).slice(0, l.sendBytes());
            final CommBuffer recv = comm.allocate(Math.max(1, l.recvBytes())).slice(0, l.recvBytes());
            return new CommBuffer[] {send, recv};
        }
        final long total = l.inPlaceBytes();
        final CommBuffer whole = comm.allocate(total);
        final CommBuffer send = region(whole, total, l.inPlaceSendOffset(), l.sendBytes());
        if (l.inPlaceSendOffset() == l.inPlaceRecvOffset() && l.sendBytes() == l.recvBytes()) {
            return new CommBuffer[] {send, send};
        }
        return new CommBuffer[] {send, region(whole, total, l.inPlaceRecvOffset(), l.recvBytes())};
    }

    private static CommBuffer region(final CommBuffer whole, final long total, final long offset, final long bytes) {
        return offset == 0 && bytes == total ? whole : whole.slice(offset, bytes);
    }

    /** Agrees with every rank whether {@code flag} holds on any of them. A collective itself. */
    boolean anyRank(final boolean flag) {
        return firstFailingRank(flag) >= 0;
    }

    /** Agrees with every rank whether someone failed: the lowest failing rank, or -1. A collective itself. */
    int firstFailingRank(final boolean failed) {
        if (voteSend == null) {
            voteSend = comm.allocate(4);
            voteRecv = comm.allocate(4);
        }
        final ByteBuffer b = ByteBuffer.allocate(4).order(Elements.ORDER);
        b.putInt(0, failed ? comm.size() - comm.rank() : 0);
        voteSend.upload(b, 0);
        comm.allReduce(voteSend, voteRecv, 1, DType.INT32, ReduceOp.MAX);
        comm.synchronize();
        b.clear();
        voteRecv.download(0, b);
        final int v = b.getInt(0);
        return v == 0 ? -1 : comm.size() - v;
    }

    Result run(final Collective coll, final Case c, final CommBuffer[] bufs) {
        final CommBuffer send = bufs == null ? null : bufs[0];
        final CommBuffer recv = bufs == null ? null : bufs[1];
        long dataNanos = 0;
        if (send != null) {
            final long t0 = System.nanoTime();
            data.fill(coll, c, send);
            dataNanos += System.nanoTime() - t0;
        }
        for (int i = 0; i < bench.warmupIters(); i++) {
            coll.run(comm, send, recv, c);
            comm.synchronize();
        }
        comm.barrier();
        final double[] times = timer.time(Math.max(1, bench.iters()), () -> coll.run(comm, send, recv, c));
        if (send == null || bench.checkIters() <= 0) {
            return new Result(times, -1, dataNanos, 0);
        }
        long wrong = 0;
        long checked = 0;
        for (int k = 1; k <= bench.checkIters(); k++) {
            final Case ck = new Case(c.type(), c.op(), c.world(), c.rank(), c.root(), k, c.layout());
            final long t0 = System.nanoTime();
            data.poison(recv);
            data.fill(coll, ck, send);
            dataNanos += System.nanoTime() - t0;
            coll.run(comm, send, recv, ck);
            comm.synchronize();
            final long t1 = System.nanoTime();
            wrong += data.countWrong(coll, ck, recv);
            dataNanos += System.nanoTime() - t1;
            checked += coll.checkedElements(ck) * c.type().bytes();
        }
        return new Result(times, wrong, dataNanos, checked);
    }
}
