package cctk.bench;

import cctk.comm.HostMemory;
import cctk.results.CrossCoreReadings;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How fast this machine moves freshly written memory from one core to another, now: two threads of this process take
 * turns, each copying the 1 MiB the other has just written into its own 1 MiB, and a reading is the lower quartile of
 * the times of up to 64 round trips (two such copies each) in µs: a thread that another one kept off its core for a
 * time slice now and then does not move it. Shared-memory collectives that hand freshly reduced data between the ranks'
 * cores (an all-reduce of 1-4 MiB at W = 2) move with it, and on some machines it changes while nothing runs: on
 * virtual machines as the hypervisor places the virtual CPUs (this project's 2-vCPU VMs read 50-130 µs in some
 * periods and 250-570 µs in others), on two-socket nodes as the threads land on one socket or both. Rank 0 takes a
 * reading before the JIT warm-up and one after the sweep (the header, the footer and the JSON carry them), and a
 * quick one before the first size and after every size ({@link MachineWatch}: each row carries it, and a size it moved
 * during is measured again); {@code cctk compare} does not judge a cell whose two sides' readings differ by more than
 * {@link CrossCoreReadings#CHANGED}.
 * A reading costs 5-40 ms (a quick one 1-12 ms). On a machine with one CPU there is no other core to hand to, and
 * none is taken.
 * <b>Note:</b> threadsafe (each reading has its own buffers and thread).
 */
final class CrossCore {

    /** The bytes each side copies a turn. */
    static final int BYTES = 1 << 20;
    /** Round trips timed at most, and the first ones left out (the pages' first touch, the helper's start). */
    private static final int TRIPS = 64;
    private static final int SKIP = 4;
    /** A reading stops after this long even with fewer round trips; a turn waits this long at most. */
    private static final long BUDGET_NANOS = 40_000_000L;
    private static final long TURN_DEADLINE_NANOS = 200_000_000L;
    /**
     * The longest a rank waits for its JIT compilers to go idle before a reading: every rank of the host does, as a
     * compile would take a core from one of the probe's two threads.
     */
    static final long QUIET_NANOS = 300_000_000L;
    /** A quick reading's lower quartile this long (µs) waited for a core: a scheduler time slice. */
    private static final double SLICE_US = 1000;
    /** A reading whose lower quartile is this many times its fastest round trip was disturbed. */
    private static final int DISTURBED = 3;
    /** Readings taken at most, while they are disturbed. */
    private static final int TRIES = 3;
    /**
     * A quick reading's round trips and budget ({@link #quick}): after every size of a sweep, where 24 round trips
     * (1-2 ms in the fast mode of this project's VM, 6-7 ms in its slow one) tell the two modes apart.
     */
    private static final int QUICK_TRIPS = 24;
    private static final long QUICK_BUDGET_NANOS = 12_000_000L;
    /**
     * How long a quick reading waits for this JVM's compilers to go idle, before it and before its second try: the
     * bookkeeping of the size just measured is often being compiled then, and a reading beside a compile is disturbed.
     */
    private static final long QUICK_QUIET_NANOS = 50_000_000L;

    private CrossCore() {
    }

    /**
     * A reading: the lower quartile of {@code trips} timed round trips in µs and the fastest of them, whether other
     * threads disturbed it, or NaN with {@code why} when none was taken.
     */
    record Reading(double roundTripUs, int trips, double fastestUs, boolean disturbed, String why) {

        static Reading none(final String why) {
            return new Reading(Double.NaN, 0, Double.NaN, false, why);
        }

        /** For the JSON ({@link CrossCoreReadings#json}). */
        Map<String, Object> asJson() {
            return CrossCoreReadings.json(roundTripUs, trips, fastestUs, disturbed, why);
        }
    }

    /**
     * Takes a reading now (5-40 ms on a machine with two CPUs or more), watching {@code compilers}, this JVM's
     * (MeasureStep's, already open). One that other threads disturbed is taken again after a wait for idle
     * compilers, up to {@value #TRIES} times, and the least disturbed is kept. Disturbed are a reading during more
     * than half of which this JVM's compilers ran (then every turn waits for a core, so the fastest round trip is
     * slow too: a C2 compile of the probe's own loop during its second reading of a run made it read 4-8 ms, a
     * scheduler time slice), and one whose lower quartile is over {@value #DISTURBED}x its fastest round trip (most
     * turns waited for a core).
     */
    static Reading measure(final CompilerThreads compilers) {
        return measure(compilers, TRIPS, BUDGET_NANOS, TRIES, false);
    }

    /**
     * A quick reading ({@value #QUICK_TRIPS} round trips, 12 ms at most, after a wait of at most 50 ms for idle
     * compilers, taken once more after another such wait when disturbed): the one {@link MachineWatch} takes after
     * every size of a sweep.
     */
    static Reading quick(final CompilerThreads compilers) {
        return measure(compilers, QUICK_TRIPS, QUICK_BUDGET_NANOS, 2, true);
    }

    private static Reading measure(final CompilerThreads compilers, final int tripsAtMost, final long budgetNanos,
                                   final int tries, final boolean quick) {
        if (Runtime.getRuntime().availableProcessors() < 2) {
            return Reading.none("rank 0 may run on one CPU only");
        }
        final long quietNanos = quick ? QUICK_QUIET_NANOS : QUIET_NANOS;
        if (quick) {
            compilers.awaitIdle(quietNanos); // a full reading's caller waited already
        }
        Reading best = null;
        for (int i = 0; i < tries; i++) {
            final long before = compilers.cpuNanos();
            final long t0 = System.nanoTime();
            final Reading r = once(tripsAtMost, budgetNanos);
            // a full reading is disturbed where most of its turns waited for a core (its lower quartile far above its
            // fastest) or a compile ran beside it (then every turn waited, the fastest too); a quick one, which only
            // tells the modes apart, where its lower quartile is a time slice: a compile beside it often left its 24
            // turns at 53 µs against a fastest of 52, and a mode that changed during it left a few fast turns among
            // slow ones, and either made 1 in 5 of them come back empty
            final boolean compiling = compilers.cpuNanos() - before > (System.nanoTime() - t0) / 2;
            final boolean disturbed = quick ? r.roundTripUs() >= SLICE_US
                : r.roundTripUs() > DISTURBED * r.fastestUs() || compiling;
            final Reading k = new Reading(r.roundTripUs(), r.trips(), r.fastestUs(), disturbed, r.why());
            if (best == null || Double.isNaN(best.roundTripUs()) || best.disturbed() && (!disturbed
                || k.roundTripUs() < best.roundTripUs())) {
                best = k;
            }
            if (!disturbed && !Double.isNaN(r.roundTripUs())) {
                break;
            }
            compilers.awaitIdle(quietNanos);
        }
        return best;
    }

    private static Reading once(final int tripsAtMost, final long budgetNanos) {
        final HostMemory[] bufs = {HostMemory.allocate(BYTES), HostMemory.allocate(BYTES)};
        final AtomicLong turn = new AtomicLong();
        final long[] stamps = new long[tripsAtMost + SKIP + 1];
        final Thread helper = new Thread(() -> play(1, bufs, turn, null, budgetNanos), "cctk-crosscore");
        helper.setDaemon(true);
        try {
            helper.start();
            final int got = play(0, bufs, turn, stamps, budgetNanos);
            final double[] trips = new double[Math.max(0, got - SKIP - 1)];
            for (int i = 0; i < trips.length; i++) {
                trips[i] = (stamps[SKIP + i + 1] - stamps[SKIP + i]) / 1e3;
            }
            if (trips.length == 0) {
                return Reading.none("the other thread did not take its turns");
            }
            Arrays.sort(trips);
            return new Reading(trips[(trips.length - 1) / 4], trips.length, trips[0], false, null);
        } finally {
            turn.set(Long.MIN_VALUE); // the helper's stop, whatever turn it waits for
            try {
                helper.join(TURN_DEADLINE_NANOS / 1_000_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (!helper.isAlive()) {
                bufs[0].free();
                bufs[1].free();
            }
        }
    }

    /**
     * One player's turns: on turn k (k even for player 0), copies the other's buffer into its own and passes the turn.
     * Player 0 stamps the start of each of its turns into {@code stamps} and ends the game when they are full or the
     * budget is spent; returns the stamps taken (player 1: 0).
     */
    private static int play(final int me, final HostMemory[] bufs, final AtomicLong turn, final long[] stamps,
                            final long budgetNanos) {
        // the budget runs from the helper's first turn: a thread that took milliseconds to start on a busy machine
        // left a quick reading with 2 round trips, or none
        long began = Long.MAX_VALUE;
        int stamped = 0;
        for (long k = me; ; k += 2) {
            final long waitFrom = System.nanoTime();
            long t;
            while ((t = turn.get()) != k) {
                if (t < 0 || System.nanoTime() - waitFrom > TURN_DEADLINE_NANOS) {
                    return stamped;
                }
                Thread.onSpinWait();
            }
            if (stamps != null) {
                final long now = System.nanoTime();
                stamps[stamped++] = now;
                if (stamped == 2) {
                    began = now;
                }
                if (stamped == stamps.length || now - began > budgetNanos) {
                    turn.set(Long.MIN_VALUE);
                    return stamped;
                }
            }
            bufs[me].copyFrom(0, bufs[1 - me], 0, BYTES);
            turn.set(k + 1);
        }
    }
}
