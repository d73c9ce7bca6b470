package cctk.bench;

import cctk.coll.Case;
import cctk.coll.Collective;
import cctk.coll.Elements;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.IterationTimer;
import cctk.comm.ReduceOp;
import cctk.spec.Benchmark;
import java.nio.ByteBuffer;

/**
 * One rank's part of one measurement on buffers the sweep holds ({@link SweepBuffers}): fill, warm-up, barrier,
 * timed iterations (by the communicator's {@link IterationTimer}, else each timed alone: call plus synchronize), then
 * check iterations with fresh inputs and poisoned outputs. Also the small votes every rank takes part in.
 * <b>Note:</b> not threadsafe.
 */
final class MeasureStep {

    /**
     * Per-iteration times of one rank, in µs, its wrong elements (-1: not checked), the time it spent filling,
     * poisoning and checking buffers (ns, System.nanoTime), the bytes it checked, and the bytes it filled, poisoned
     * and checked in that time.
     */
    record Result(double[] timesUs, long wrong, long fillCheckNanos, long checkedBytes, long dataBytes) {
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

    /** Agrees with every rank whether {@code flag} holds on any of them. A collective itself. */
    boolean anyRank(final boolean flag) {
        return firstFailingRank(flag) >= 0;
    }

    /** Agrees with every rank whether someone failed: the lowest failing rank, or -1. A collective itself. */
    int firstFailingRank(final boolean failed) {
        final int v = maxOverRanks(failed ? comm.size() - comm.rank() : 0);
        return v == 0 ? -1 : comm.size() - v;
    }

    /** The largest {@code value} any rank gives. A collective itself. */
    int maxOverRanks(final int value) {
        if (voteSend == null) {
            voteSend = comm.allocate(4);
            voteRecv = comm.allocate(4);
        }
        final ByteBuffer b = ByteBuffer.allocate(4).order(Elements.ORDER);
        b.putInt(0, value);
        voteSend.upload(b, 0);
        comm.allReduce(voteSend, voteRecv, 1, DType.INT32, ReduceOp.MAX);
        comm.synchronize();
        b.clear();
        voteRecv.download(0, b);
        return b.getInt(0);
    }

    /** Gives the votes' buffers back. */
    void close() {
        if (voteSend != null) {
            comm.free(voteSend);
            comm.free(voteRecv);
            voteSend = null;
            voteRecv = null;
        }
    }

    Result run(final Collective coll, final Case c, final CommBuffer[] bufs) {
        final CommBuffer send = bufs == null ? null : bufs[0];
        final CommBuffer recv = bufs == null ? null : bufs[1];
        long dataNanos = 0;
        long dataBytes = 0;
        if (send != null) {
            final long t0 = System.nanoTime();
            data.fill(coll, c, send);
            dataNanos += System.nanoTime() - t0;
            dataBytes += send.bytes();
        }
        for (int i = 0; i < bench.warmupIters(); i++) {
            coll.run(comm, send, recv, c);
            comm.synchronize();
        }
        comm.barrier();
        final double[] times = timer.time(Math.max(1, bench.iters()), () -> coll.run(comm, send, recv, c));
        if (send == null || bench.checkIters() <= 0) {
            return new Result(times, -1, dataNanos, 0, dataBytes);
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
            final long k1 = coll.checkedElements(ck) * c.type().bytes();
            checked += k1;
            dataBytes += recv.bytes() + send.bytes() + k1;
        }
        return new Result(times, wrong, dataNanos, checked, dataBytes);
    }
}
