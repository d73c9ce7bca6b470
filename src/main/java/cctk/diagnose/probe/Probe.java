package cctk.diagnose.probe;

import cctk.bench.JitClock;
import cctk.bench.RankVote;
import cctk.coll.AllReduce;
import cctk.coll.Case;
import cctk.coll.Collective;
import cctk.coll.Elements;
import cctk.coll.Layout;
import cctk.coll.SendRecv;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import java.nio.ByteBuffer;
import java.util.function.LongSupplier;

/**
 * A diagnosis's measuring loop over one communicator: float32 sums of one message size through the cctk.coll
 * collectives. Each iteration is timed alone on each rank (a little fixed host work before it, as a training step does
 * between collectives, so that a rank on a slow or busy core arrives late); the timed iterations last at least the
 * window (more than asked for when they are quick), and warm-up and timed iterations are cut to fit the
 * time limit, by a count every rank agrees on (from the slowest rank's first iteration). The figure is the first
 * quartile over the iterations of the slowest rank's time, as bus bandwidth: a fault slows every iteration and shows;
 * a neighbour that takes the core for some iterations does not. Its warm-up reads the sweep's JIT clock and takes the
 * sweep's vote ({@link cctk.bench.JitClock}, {@link cctk.bench.RankVote}); its timed loop is not the sweep's
 * ({@code cctk.bench.MeasureStep}), which times its iterations back to back with no host work between them, sleeps
 * for the compilers and times a loop again when a compile or a collection disturbed it, and sizes its loop from the
 * spec's iterations, not from a time limit: it would hide the slow or busy core this loop is there to show, and
 * change the figures the verdict is judged on.
 * <b>Note:</b> not threadsafe: one per communicator, on its thread.
 */
final class Probe {

    /** The operations of a pair, in {@link cctk.diagnose.verdict.Figures#PAIR_OPS} order. */
    static final Collective[] PAIR_OPS = {new SendRecv(), new AllReduce()};
    /** Longs of host work before each iteration (256 KiB: tens of µs). */
    private static final int HOST_WORK = 32 << 10;
    /** Calls per warm-up round. */
    private static final int WARM_ROUND = 20;
    /** A warm-up vote's bit: this rank's JIT compiled during the round (or its clock cannot be read). */
    private static final int COMPILED = 1;
    /** A warm-up vote's bit: this rank's warm-up budget is spent. */
    private static final int SPENT = 2;
    /** The most timed iterations of one measurement. */
    static final int MAX_ITERS = 1000;

    /**
     * One measurement.
     *
     * @param busBw     GB/s from the first quartile of the per-iteration maxima
     * @param timeUs    that quartile, µs
     * @param iters     timed iterations run
     * @param mineUs    this rank's own time in each iteration, µs
     */
    record Measured(double busBw, double timeUs, int iters, double[] mineUs) {
    }

    private final Communicator comm;
    private final long bytes;
    private final int warmup;
    private final int iters;
    private final long limitNanos;
    private final long windowNanos;
    private final CommBuffer send;
    private final CommBuffer recv;
    private final CommBuffer vote;
    private final RankVote votes;
    private final LongSupplier jit = JitClock.compiler();
    private final long[] work = new long[HOST_WORK];
    private long sink;

    Probe(final Communicator comm, final long bytes, final int warmup, final int iters, final long limitNanos,
          final long windowNanos) {
        this.comm = comm;
        this.bytes = bytes;
        this.warmup = warmup;
        this.iters = iters;
        this.limitNanos = limitNanos;
        this.windowNanos = windowNanos;
        final Layout l = Layout.wholeBuffer(bytes, DType.FLOAT32);
        this.send = comm.allocate(Math.max(4, l.sendBytes()));
        this.recv = comm.allocate(Math.max(4, l.recvBytes()));
        this.vote = comm.allocate(8L * MAX_ITERS);
        this.votes = new RankVote(comm);
    }

    /** Measures {@code coll} on every rank of the communicator (a collective call itself). */
    Measured measure(final Collective coll) {
        final Layout l = Layout.wholeBuffer(bytes, DType.FLOAT32);
        final Case c = new Case(DType.FLOAT32, coll.type().reduces() ? ReduceOp.SUM : null, comm.size(), comm.rank(),
                0, 0, l);
        final long t0 = System.nanoTime();
        run(coll, c);
        final double first = max(new double[] {(System.nanoTime() - t0) / 1e3}, 1)[0] * 1e3;
        final double perIter = Math.max(1.0, first);
        final long wanted = Math.max(iters, (long) Math.ceil(windowNanos / perIter));
        final int n = (int) Math.max(1, Math.min(Math.min(wanted, MAX_ITERS), limitNanos / perIter));
        final int w = (int) Math.min(warmup, Math.max(0, limitNanos / 4 / Math.max(1.0, first)));
        for (int i = 0; i < w; i++) {
            run(coll, c);
        }
        comm.barrier();
        final double[] mine = new double[n];
        for (int i = 0; i < n; i++) {
            hostWork();
            final long s = System.nanoTime();
            run(coll, c);
            mine[i] = (System.nanoTime() - s) / 1e3;
        }
        final double[] slowest = max(mine.clone(), n);
        java.util.Arrays.sort(slowest);
        final double time = slowest[(int) Math.ceil(0.25 * n) - 1];
        final double busBw = l.sizeBytes() / (time * 1e-6) / 1e9 * coll.busBwFactor(comm.size());
        return new Measured(busBw, time, n, mine);
    }

    /**
     * Untimed rounds of {@code coll} until one passes in which no rank's JIT compiled anything, or {@code budget}
     * is spent (a collective call; every rank stops after the same round). The compiler's clock is the sweep's
     * ({@link JitClock}) and so is the vote: one int, the largest over ranks, with bit 2 for a rank whose budget is
     * spent and bit 1 for a rank whose JIT compiled; anything but 1 ends the rounds. Without the compiler's clock
     * (a runtime without java.management) it runs the budget out.
     */
    void warmUp(final Collective coll, final long budgetNanos) {
        final Layout l = Layout.wholeBuffer(bytes, DType.FLOAT32);
        final Case c = new Case(DType.FLOAT32, coll.type().reduces() ? ReduceOp.SUM : null, comm.size(), comm.rank(),
                0, 0, l);
        final long end = System.nanoTime() + budgetNanos;
        while (true) {
            final long compiled = jit == null ? 0 : jit.getAsLong();
            for (int i = 0; i < WARM_ROUND; i++) {
                run(coll, c);
            }
            final boolean busy = jit == null || jit.getAsLong() != compiled;
            if (votes.maxOverRanks((System.nanoTime() > end ? SPENT : 0) | (busy ? COMPILED : 0)) != COMPILED) {
                return;
            }
        }
    }

    /** Every rank's times, rank after rank (an all-gather through the vote buffer; a collective call). */
    double[][] gather(final double[] mine) {
        final int n = mine.length;
        final CommBuffer out = comm.allocate(8L * n * comm.size());
        upload(vote, mine, n);
        comm.allGather(vote.slice(0, 8L * n), out, n, DType.FLOAT64);
        comm.synchronize();
        final double[][] all = new double[comm.size()][n];
        final ByteBuffer b = ByteBuffer.allocate(8 * n * comm.size()).order(Elements.ORDER);
        out.download(0, b);
        for (int r = 0; r < comm.size(); r++) {
            for (int i = 0; i < n; i++) {
                all[r][i] = b.getDouble((r * n + i) * 8);
            }
        }
        return all;
    }

    /** A dependency the JIT cannot drop (the host work's result). */
    long sink() {
        return sink;
    }

    private void run(final Collective coll, final Case c) {
        coll.run(comm, send, recv, c);
        comm.synchronize();
    }

    private void hostWork() {
        long s = sink;
        for (int i = 0; i < work.length; i++) {
            s += work[i] ^ (s >>> 7);
            work[i] = s;
        }
        sink = s;
    }

    /** The element-wise maximum over ranks of the first {@code n} values (in place). */
    private double[] max(final double[] values, final int n) {
        final CommBuffer mine = n <= MAX_ITERS ? vote : comm.allocate(8L * n);
        upload(mine, values, n);
        comm.allReduce(mine, mine, n, DType.FLOAT64, ReduceOp.MAX);
        comm.synchronize();
        final ByteBuffer b = ByteBuffer.allocate(8 * n).order(Elements.ORDER);
        mine.download(0, b);
        for (int i = 0; i < n; i++) {
            values[i] = b.getDouble(i * 8);
        }
        return values;
    }

    private static void upload(final CommBuffer buf, final double[] values, final int n) {
        final ByteBuffer b = ByteBuffer.allocate(8 * n).order(Elements.ORDER);
        for (int i = 0; i < n; i++) {
            b.putDouble(values[i]);
        }
        b.flip();
        buf.upload(b, 0);
    }
}
