package cctk.bench;

import cctk.coll.Case;
import cctk.coll.Collective;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.IterationTimer;
import cctk.spec.Benchmark;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * One rank's part of one measurement on buffers the sweep holds ({@link SweepBuffers}): fill, warm-up, a sleep
 * while this JVM's JIT compilers are busy (at most {@link #MAX_COMPILER_WAIT_NANOS}; {@link CompilerThreads}), barrier,
 * timed iterations (by the communicator's {@link IterationTimer}, else each timed alone: call plus synchronize), timed
 * again (up to {@link #MAX_RETIMES} times) when any rank's JIT compiled or its collector ran meanwhile, and once with
 * more calls when it was too short for its window ({@link #longerLoop}), then
 * check iterations with fresh inputs and poisoned outputs. Also the small votes every rank takes part in.
 * <b>Note:</b> not threadsafe.
 */
final class MeasureStep {

    /**
     * One rank's part of one repeat of a point: its per-iteration times (µs) of the kept attempt, the mean of its
     * first attempt's, the timed loops it ran (the same on every rank: re-timing is voted), how many of them were
     * timed again for a compile or for a collection, or with more calls as the loop at its median call filled less
     * than half the window ({@link #longerLoop}), whether the kept one was still disturbed, the wall time of all
     * its timed loops (ns), its wrong elements (-1: not checked), the time it spent filling, poisoning and checking
     * buffers (ns, System.nanoTime), the bytes it checked, and the bytes it filled, poisoned and checked in that time.
     */
    record Result(double[] timesUs, double firstMeanUs, int attempts, int jitRetimes, int gcRetimes, int lengthened,
                  boolean keptDisturbed, long loopNanos, long wrong, long fillCheckNanos, long checkedBytes,
                  long dataBytes) {

        /** A repeat timed once and undisturbed, for tests and for combining per-rank times. */
        static Result of(final double[] timesUs, final long wrong) {
            double sum = 0;
            for (final double t : timesUs) {
                sum += t;
            }
            return new Result(timesUs, sum / timesUs.length, 1, 0, 0, 0, false, 0, wrong, 0, 0, 0);
        }
    }

    /** The share of a timed loop its warm-up calls may take (at least two calls, or the floor's time). */
    static final double WARMUP_SHARE = 0.1;
    /** Warm-up calls that together take less than this all run. */
    static final int WARMUP_FLOOR_MICROS = 2_000;

    /** A timed loop during which a JIT compiler ran on some rank (the larger bit: it wins the vote's maximum). */
    static final int JIT = 2;
    /** A timed loop during which a collector ran on some rank. */
    static final int GC = 1;

    /** The longest a rank waits for its JIT compilers to finish before it times a point. */
    static final long MAX_COMPILER_WAIT_NANOS = 250_000_000L;

    /** How often a point is timed again when a compile or a collection ran on some rank while it was timed. */
    static final int MAX_RETIMES = 3;

    /**
     * The low bits of the vote after a timed loop: its length at its median call in us (up to 536 s); the disturbance
     * above them.
     */
    private static final int ELAPSED_BITS = 29;
    private static final int ELAPSED_MAX = (1 << ELAPSED_BITS) - 1;

    /**
     * Compiler time on a core during a timed loop that counts as a disturbance: more than an idle compiler thread's
     * wake-ups, less than one compile.
     */
    static final long COMPILER_NOISE_NANOS = 200_000L;
    /**
     * The share of a timed loop's wall time its compilers may take before it counts as disturbed, where that is more
     * than {@link #COMPILER_NOISE_NANOS}: a compile delays the loop by at most about its own time on a core (it takes
     * the core of a rank that the others then wait for), so one that took less than 1 % of a long loop moves the
     * loop's mean by about that, far inside its spread. Without it an 8 s loop (20 calls of a 64 MiB gloo all_gather
     * on this project's VM) was timed 17 times for compiles of a few ms each, and a 1 GB all-reduce's loop of 12 s as
     * often.
     */
    static final double COMPILER_LOOP_SHARE = 0.01;

    private final Communicator comm;
    private final Benchmark bench;
    private final boolean retime;
    private final BufferData data;
    private final IterationTimer timer;
    private final CompilerThreads compilers = CompilerThreads.open();
    private final boolean compilerCpuVisible = compilers.cpuNanos() > 0;
    private final LongSupplier compiles = JitClock.compiler();
    private final LongSupplier collections = JitClock.collections();
    private int compilerWaits;
    private long compilerWaitNanos;
    private long waitBudgetNanos = Long.MAX_VALUE;
    private int retimed;
    private int stillDisturbed;
    private int loopsLengthened;
    private long warmUpNanos;
    /** Every vote of this rank's sweep: a point takes up to three a repeat. */
    private final RankVote votes;

    MeasureStep(final Communicator comm, final Benchmark bench, final BufferData data) {
        this.comm = comm;
        this.bench = bench;
        this.retime = bench.retime();
        this.data = data;
        this.timer = IterationTimer.of(comm);
        this.votes = new RankVote(comm);
    }

    /**
     * What the JIT and the collector did to the timings of this rank's sweep: the points it timed only after waiting
     * for its compilers, how long it waited, the points timed again (the same on every rank), those still
     * disturbed on their last try, and the loops timed again with more calls ({@link #longerLoop}).
     */
    Map<String, Object> jitDuringSweep() {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("points_waited", compilerWaits);
        m.put("wait_ms", Math.round(compilerWaitNanos / 1e5) / 10.0);
        m.put("points_retimed", retimed);
        m.put("points_still_disturbed", stillDisturbed);
        m.put("loops_lengthened", loopsLengthened);
        m.put("summary", String.format(Locale.ROOT, "rank 0 waited for its JIT compiler before %d point(s) (%.1f ms);"
                + " %d point(s) timed again after a compile or a collection during timing%s%s", compilerWaits,
                compilerWaitNanos / 1e6, retimed, stillDisturbed == 0 ? "" : ", " + stillDisturbed
                + " still disturbed after " + MAX_RETIMES + " more tries", loopsLengthened == 0 ? ""
                : "; " + loopsLengthened + " loop(s) timed again with more calls, as at their median call they filled"
                + " less than half the window"));
        return m;
    }

    /**
     * Bounds the time this rank may sleep for its compilers before points, over the whole sweep (a share of the job's
     * time limit, so the waits never starve a short job of rows).
     */
    void waitBudget(final long nanos) {
        waitBudgetNanos = Math.max(0, nanos);
    }

    /** The longest the next wait for idle compilers may last: {@link #MAX_COMPILER_WAIT_NANOS}, within the budget. */
    private long nextWaitNanos() {
        return Math.max(0, Math.min(MAX_COMPILER_WAIT_NANOS, waitBudgetNanos - compilerWaitNanos));
    }

    /** A count that changes when this JVM compiled, where the compilers' time on a core cannot be read; else 0. */
    private long compileCount() {
        return compilerCpuVisible || compiles == null ? 0 : compiles.getAsLong();
    }

    /** A count that changes when this JVM collected (0 where it cannot be read). */
    private long collectionCount() {
        return collections == null ? 0 : collections.getAsLong();
    }

    /** Agrees with every rank whether {@code flag} holds on any of them. A collective itself. */
    boolean anyRank(final boolean flag) {
        return votes.anyRank(flag);
    }

    /** Agrees with every rank whether someone failed: the lowest failing rank, or -1. A collective itself. */
    int firstFailingRank(final boolean failed) {
        return votes.firstFailingRank(failed);
    }

    /** The largest {@code value} any rank gives. A collective itself. */
    int maxOverRanks(final int value) {
        return votes.maxOverRanks(value);
    }

    /** The time this rank spent in the points' warm-up calls so far (ns, System.nanoTime). */
    long warmUpNanos() {
        return warmUpNanos;
    }

    /** The time this rank slept for its compilers before points so far (ns). */
    long compilerWaitNanos() {
        return compilerWaitNanos;
    }

    /** This JVM's compiler threads, watched. */
    CompilerThreads compilers() {
        return compilers;
    }

    /** Gives the votes' buffers back. */
    void close() {
        compilers.close();
        votes.close();
    }

    /**
     * One repeat of a point: fill, warm-up, the timed loop (timed again while disturbed, unless re-timing is off), and
     * when {@code check}, the check iterations.
     */
    Result run(final Collective coll, final Case c, final CommBuffer[] bufs, final boolean check) {
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
        final long warming = System.nanoTime();
        int loop = loopIters(bench, warmUp(coll, send, recv, c));
        warmUpNanos += System.nanoTime() - warming;
        double[] times;
        double firstMean = Double.NaN;
        int attempts = 0;
        int jitRetimes = 0;
        int gcRetimes = 0;
        int lengthened = 0;
        boolean keptDisturbed = false;
        long loopNanos = 0;
        while (true) {
            // what the warm-up iterations (or the last point's bookkeeping) queued is compiled now, not during timing
            final long waited = compilers.awaitIdle(nextWaitNanos());
            if (waited > 0) {
                compilerWaits++;
                compilerWaitNanos += waited;
            }
            final long compiling = compilers.cpuNanos();
            final long compiled = compileCount();
            final long collected = collectionCount();
            comm.barrier();
            final long t0 = System.nanoTime();
            times = timer.time(loop, () -> coll.run(comm, send, recv, c));
            final long took = System.nanoTime() - t0;
            loopNanos += took;
            attempts++;
            if (attempts == 1) {
                firstMean = mean(times);
            }
            final boolean jit = compileDisturbed(compilers.cpuNanos() - compiling, took) || compileCount() != compiled;
            final boolean gc = collectionCount() != collected;
            // one vote: what disturbed the loop on any rank in the high bits (JIT, with or without GC, wins the
            // maximum over GC alone), and the loop's length at its median call in the low bits (the longest among the
            // ranks the worst disturbance hit: the median call is the typical one however the loop was disturbed)
            final int vote = retime ? maxOverRanks((jit ? JIT : gc ? GC : 0) << ELAPSED_BITS
                | (int) Math.min(ELAPSED_MAX, Math.ceil(IterationStats.median(times) * loop))) : 0;
            final int why = vote >>> ELAPSED_BITS;
            // a loop too short for its window is timed again with more calls, once, whether or not it was disturbed
            // too (its disturbance goes with it): on a busy machine a compile lands in most short loops, and a loop
            // that waited for a quiet one would never be lengthened
            final int longer = retime && lengthened == 0 ? longerLoop(bench, loop, vote & ELAPSED_MAX) : loop;
            if (longer != loop) {
                loop = longer;
                lengthened++;
                loopsLengthened++;
                continue;
            }
            if (why == 0) {
                break;
            }
            if (attempts - lengthened > MAX_RETIMES) {
                stillDisturbed++;
                keptDisturbed = true;
                break;
            }
            retimed++;
            if ((why & JIT) != 0) {
                jitRetimes++;
            } else {
                gcRetimes++;
            }
        }
        if (send == null || !check || bench.checkIters() <= 0) {
            return new Result(times, firstMean, attempts, jitRetimes, gcRetimes, lengthened, keptDisturbed,
                loopNanos, -1, dataNanos, 0, dataBytes);
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
        return new Result(times, firstMean, attempts, jitRetimes, gcRetimes, lengthened, keptDisturbed,
            loopNanos, wrong, dataNanos, checked, dataBytes);
    }

    /**
     * Whether compilers that ran {@code compilerNanos} on a core during a timed loop of {@code loopNanos} (its wall
     * time) disturbed it: more than {@link #COMPILER_NOISE_NANOS} and more than {@link #COMPILER_LOOP_SHARE} of the
     * loop.
     */
    static boolean compileDisturbed(final long compilerNanos, final long loopNanos) {
        return compilerNanos > Math.max(COMPILER_NOISE_NANOS, (long) (COMPILER_LOOP_SHARE * loopNanos));
    }

    /**
     * The untimed calls before a timed loop: the first always; the ranks then agree on how long it took (one vote,
     * where there are more warm-up calls to bound), and the rest of the spec's {@code warmup} run only as far as they
     * fit in {@value #WARMUP_SHARE} of the timed loop to come, or in {@value #WARMUP_FLOOR_MICROS} us: a 64 MiB call
     * warms its pages and caches once, and five of them cost a quarter of a 20-iteration loop. Where loops fill a
     * window, the ranks agree on the fastest warm-up call's time too: the first (cold) call overstates it several-fold,
     * and any one call may have lost its core (a 1 MiB all_gather's last warm-up call read 1 ms against 23 us, so its
     * loop ran 20 calls instead of the 400 that fill 10 ms, and one more lost core tripled the row's mean).
     * Returns that fastest call's time agreed by every rank (the slowest rank's), in us, or -1 when there was no vote.
     */
    private int warmUp(final Collective coll, final CommBuffer send, final CommBuffer recv, final Case c) {
        final int n = bench.warmupIters();
        if (n <= 0) {
            return -1;
        }
        long t0 = System.nanoTime();
        coll.run(comm, send, recv, c);
        comm.synchronize();
        long fastest = System.nanoTime() - t0;
        final int calls = n <= 2 ? n : warmUpCalls(n, maxOverRanks(micros(fastest)), bench.iters());
        for (int i = 1; i < calls; i++) {
            t0 = System.nanoTime();
            coll.run(comm, send, recv, c);
            comm.synchronize();
            fastest = Math.min(fastest, System.nanoTime() - t0);
        }
        return bench.windowMillis() <= 0 ? -1 : maxOverRanks(micros(fastest));
    }

    private static int micros(final long nanos) {
        return (int) Math.min(Integer.MAX_VALUE, nanos / 1_000);
    }

    /**
     * The iterations of a timed loop of calls that take about {@code micros} each (the last warm-up call's; -1:
     * unknown): the spec's
     * {@code iters}, or as many as fill {@code window_ms}, at most {@link Benchmark#maxLoopIters()}. Every rank gets
     * the same number from the same vote.
     */
    static int loopIters(final Benchmark b, final int micros) {
        final int iters = Math.max(1, b.iters());
        if (b.windowMillis() <= 0 || micros < 0) {
            return iters;
        }
        final long fill = (long) b.windowMillis() * 1_000 / Math.max(1, micros);
        return (int) Math.max(iters, Math.min(b.maxLoopIters(), fill));
    }

    /**
     * The calls to time again after a loop of {@code loop} calls that would have lasted {@code elapsedMicros} at its
     * median call (on its slowest rank among those the worst disturbance hit): more, as many as fill the window (at
     * most {@link Benchmark#maxLoopIters()}), when that is less than half of {@code window_ms}; else {@code loop},
     * and the loop is kept. The loop's length came from the warm-up calls, and where every one of those lost its core
     * (1 MiB on shared memory: 0.5-1 ms a call against 25 us in the loop) a loop of 20 calls lasts 0.5 ms, and one
     * lost core in it moves its mean several-fold; judged by its median call, a loop that one stall of 10 ms stretched
     * to the window is lengthened too (a 1 MiB all_gather's row read 500 us a call against a p50 of 28 us).
     */
    static int longerLoop(final Benchmark b, final int loop, final int elapsedMicros) {
        final long window = b.windowMillis() * 1_000L;
        if (window <= 0 || loop >= b.maxLoopIters() || 2L * elapsedMicros >= window) {
            return loop;
        }
        final long fill = (long) Math.ceil((double) loop * window / Math.max(1, elapsedMicros));
        return (int) Math.min(b.maxLoopIters(), fill);
    }

    /** Warm-up calls of {@code micros} each, of at most {@code n}, that fit the budget of a loop of {@code iters}. */
    static int warmUpCalls(final int n, final int micros, final int iters) {
        final double budget = Math.max(WARMUP_FLOOR_MICROS, WARMUP_SHARE * iters * micros);
        return (int) Math.max(Math.min(2, n), Math.min(n, budget / Math.max(1, micros)));
    }

    private static double mean(final double[] t) {
        double sum = 0;
        for (final double v : t) {
            sum += v;
        }
        return sum / t.length;
    }
}
