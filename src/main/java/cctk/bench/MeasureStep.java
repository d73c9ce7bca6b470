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
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * One rank's part of one measurement on buffers the sweep holds ({@link SweepBuffers}): fill, warm-up, a sleep
 * while this JVM's JIT compilers are busy (at most {@link #MAX_COMPILER_WAIT_NANOS}; {@link CompilerThreads}), barrier,
 * timed iterations (by the communicator's {@link IterationTimer}, else each timed alone: call plus synchronize), timed
 * again (up to {@link #MAX_RETIMES} times) when any rank's JIT compiled or its collector ran meanwhile, then
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

    /** The longest a rank waits for its JIT compilers to finish before it times a point. */
    static final long MAX_COMPILER_WAIT_NANOS = 250_000_000L;

    /** How often a point is timed again when a compile or a collection ran on some rank while it was timed. */
    static final int MAX_RETIMES = 3;

    /**
     * Compiler time on a core during a timed loop that counts as a disturbance: more than an idle compiler thread's
     * wake-ups, less than one compile.
     */
    static final long COMPILER_NOISE_NANOS = 200_000L;

    private final Communicator comm;
    private final Benchmark bench;
    private final BufferData data;
    private final IterationTimer timer;
    private final CompilerThreads compilers = CompilerThreads.open();
    private final boolean compilerCpuVisible = compilers.cpuNanos() > 0;
    private final LongSupplier compiles = JitWarmUp.compilerClock();
    private final LongSupplier collections = JitWarmUp.gcCounter();
    private int compilerWaits;
    private long compilerWaitNanos;
    private int retimed;
    private int stillDisturbed;
    private CommBuffer voteSend;
    private CommBuffer voteRecv;

    MeasureStep(final Communicator comm, final Benchmark bench, final BufferData data) {
        this.comm = comm;
        this.bench = bench;
        this.data = data;
        this.timer = IterationTimer.of(comm);
    }

    /**
     * What the JIT and the collector did to the timings of this rank's sweep: the points it timed only after waiting
     * for its compilers, how long it waited, the points timed again (the same on every rank), and those still
     * disturbed on their last try.
     */
    Map<String, Object> jitDuringSweep() {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("points_waited", compilerWaits);
        m.put("wait_ms", Math.round(compilerWaitNanos / 1e5) / 10.0);
        m.put("points_retimed", retimed);
        m.put("points_still_disturbed", stillDisturbed);
        m.put("summary", String.format(Locale.ROOT, "rank 0 waited for its JIT compiler before %d point(s) (%.1f ms);"
                + " %d point(s) timed again after a compile or a collection during timing%s", compilerWaits,
                compilerWaitNanos / 1e6, retimed, stillDisturbed == 0 ? "" : ", " + stillDisturbed
                + " still disturbed after " + MAX_RETIMES + " more tries"));
        return m;
    }

    /**
     * A count that changes when this JVM collected, and where the compilers' time on a core cannot be read, when
     * it compiled (the compiles' total time, ms); parts that cannot be read count 0.
     */
    private long compilesAndCollections() {
        return (compilerCpuVisible || compiles == null ? 0 : compiles.getAsLong())
                + (collections == null ? 0 : collections.getAsLong());
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

    /** This JVM's compiler threads, watched. */
    CompilerThreads compilers() {
        return compilers;
    }

    /** Gives the votes' buffers back. */
    void close() {
        compilers.close();
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
        double[] times;
        for (int attempt = 0; ; attempt++) {
            // what the warm-up iterations (or the last point's bookkeeping) queued is compiled now, not during timing
            final long waited = compilers.awaitIdle(MAX_COMPILER_WAIT_NANOS);
            if (waited > 0) {
                compilerWaits++;
                compilerWaitNanos += waited;
            }
            final long compiling = compilers.cpuNanos();
            final long other = compilesAndCollections();
            comm.barrier();
            times = timer.time(Math.max(1, bench.iters()), () -> coll.run(comm, send, recv, c));
            final boolean disturbed = compilers.cpuNanos() - compiling > COMPILER_NOISE_NANOS
                    || compilesAndCollections() != other;
            if (!anyRank(disturbed)) {
                break;
            }
            if (attempt == MAX_RETIMES) {
                stillDisturbed++;
                break;
            }
            retimed++;
        }
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
