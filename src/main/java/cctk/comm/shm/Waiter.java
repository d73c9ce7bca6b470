package cctk.comm.shm;

import cctk.CctkException;
import cctk.comm.DType;
import cctk.comm.Tuning;
import java.util.concurrent.locks.LockSupport;

/**
 * Every wait on a peer's control counter: spin for a while (none where the host's ranks outnumber its cores), then
 * yield, then park with a doubling bound (1 us to 256 us), so ranks that share cores hand theirs over instead of
 * burning it, and ranks with a core each wake at once from the short waits of back-to-back collectives. How long it
 * spins adapts, as an adaptive lock's spinning does: up to {@code Tuning.shmSpinMicros}, halved after every long wait
 * the spin did not end (the peer came much later: it was busy, or it had lost its core, maybe to this very rank), and
 * doubled after a wait the spin caught or that was short anyway. So a rank whose peer lost its core to another process
 * stops spinning within a few waits and gives the core back, instead of paying a scheduler time slice per iteration;
 * and on a quiet machine the short waits of back-to-back collectives keep spinning. A long wait halves the spin only
 * while more threads are runnable than there are cores ({@link RunQueue}): otherwise it was a busy peer, or one that
 * had parked, and two ranks that halved their spins on each other's parks would settle into a slow mode of a park's
 * wake-up per handoff (measured: 1 MiB broadcasts at W=2 of 190-340 us per call against 23 us).
 * About every 100 ms a waiting rank checks that the peers it waits on are still there (their "gone" flag, their
 * process); a dead one is named at once ("rank 1 probably died"), a live one that makes no progress when the
 * deadline passes ("rank 2 (not sending)"), in the words of the tcp backend's messages, which
 * {@code cctk.bench.Blame} reads. Allocates nothing unless it throws.
 * <b>Note:</b> not threadsafe.
 */
final class Waiter {

    /** A peer's epoch (collective handoffs). */
    static final int EPOCH = 0;
    /** The sends a peer has posted to this rank. */
    static final int SENDS = 1;
    /** This rank's sends that a peer has consumed. */
    static final int CONSUMED = 2;

    private static final long CHECK_NANOS = 100_000_000L;
    private static final long PARK_MIN = 1_000L;
    private static final long PARK_MAX = 256_000L;
    /** The shortest spin a short wait brings back; from there it doubles towards the maximum. */
    static final long SPIN_FLOOR_NANOS = 4_000L;
    /**
     * The least a rank with a core of its own spins however long its waits: a handoff of back-to-back collectives
     * takes microseconds, and ranks that stopped spinning altogether park on each other and settle into a park's
     * wake-up per handoff (64 KiB all-reduces at W=2: 100 us per call against 10); where the peer lost its core, 50 us
     * a wait is all it costs.
     */
    static final long SPIN_MIN_NANOS = 50_000L;
    /** A wait this short would have been caught by spinning: shorter than a park's wake-up. */
    static final long SHORT_WAIT_NANOS = 100_000L;

    private final Members members;
    private final int me;
    private final int size;
    private final long deadlineNanos;
    private final long spinNanos;
    private final int yields;
    /** The current spin: from 0 (or the floor) to {@link #spinNanos}. */
    private long spinBudget;
    /** Whether threads wait for a core now; null where ranks share cores (they never spin). */
    private final RunQueue runQueue;
    private String operation = "setup";
    private long bytes = -1;
    private DType type;
    /** In a wait on every peer: the peers below this one have reached the target. */
    private int from;

    Waiter(final Members members, final long deadlineNanos) {
        this.members = members;
        this.me = members.rank;
        this.size = members.size;
        this.deadlineNanos = deadlineNanos;
        // more ranks than cores: a spinning rank holds the core the rank it waits for needs
        final boolean sharesCores = size > Runtime.getRuntime().availableProcessors();
        this.spinNanos = sharesCores ? 0 : Tuning.fromSystemProperties().shmSpinMicros() * 1_000L;
        this.yields = sharesCores ? 8 : 32;
        this.spinBudget = spinNanos;
        this.runQueue = spinNanos > 0 ? RunQueue.open() : null;
    }

    /** Closes what the spin's adaptation reads. */
    void close() {
        if (runQueue != null) {
            runQueue.close();
        }
    }

    /** Names the running collective in error messages (a constant name; {@code bytes} -1 for none). */
    void operation(final String name, final long bytesMoved, final DType elementType) {
        this.operation = name;
        this.bytes = bytesMoved;
        this.type = elementType;
    }

    /** Waits until counter {@code kind} of {@code peer} (-1: of every peer) reaches {@code target}. */
    void await(final int kind, final int peer, final long target, final boolean reading) {
        from = 0;
        if (reached(kind, peer, target)) {
            return;
        }
        final long start = System.nanoTime();
        long check = start + CHECK_NANOS;
        long park = PARK_MIN;
        int round = 0;
        final long budget = spinBudget;
        boolean spinning = budget > 0;
        int yielded = 0;
        long now = start;
        long lastMiss = start;
        while (!reached(kind, peer, target)) {
            lastMiss = now; // read before the check that just failed: the peer came after it
            if (spinning) {
                Thread.onSpinWait();
            } else if (yielded < yields) {
                Thread.yield();
                yielded++;
            } else {
                LockSupport.parkNanos(park);
                park = Math.min(PARK_MAX, park << 1);
            }
            round++;
            if (!spinning || (round & 63) == 0) {
                now = System.nanoTime();
                spinning &= now - start < budget;
                if (now - check >= 0) {
                    verify(kind, peer, target);
                    check = now + CHECK_NANOS;
                }
                if (now - start > deadlineNanos) {
                    throw stalled(kind, peer, target, reading);
                }
            }
        }
        // how long the peer took at least: a rank that parked learns when it woke, not when the peer came
        adapt(lastMiss - start, budget);
    }

    /**
     * After a wait whose peer came at least {@code took} ns after it began (the last time it was seen missing: a rank
     * that parked learns when it woke, not when the peer came, so a short wait never looks long because of its own
     * wake-up), that spun for at most {@code budget}: the next wait's spin. A spin that caught the peer may grow; a
     * wait that outlasted the spin but stayed short ({@value #SHORT_WAIT_NANOS} ns) would have been caught by a spin
     * twice as long; a longer one halves the spin, as spinning on it only held a core.
     */
    private void adapt(final long took, final long budget) {
        // a long wait while every runnable thread has a core was a busy or parked peer: spinning cost nobody anything
        spinBudget = runQueue != null && took > budget && took >= SHORT_WAIT_NANOS && !runQueue.contended() ? spinNanos
            : nextSpin(spinNanos, budget, took);
    }

    /** The spin after a wait of {@code took} ns that spun for at most {@code budget}, of at most {@code max}. */
    static long nextSpin(final long max, final long budget, final long took) {
        if (max == 0) {
            return 0;
        }
        if (took <= budget) {
            return Math.min(max, Math.max(SPIN_FLOOR_NANOS, budget * 2));
        }
        if (took < SHORT_WAIT_NANOS) {
            return Math.min(max, Math.max(SPIN_FLOOR_NANOS, Math.max(budget, took) * 2));
        }
        return Math.max(SPIN_MIN_NANOS, budget / 2);
    }

    private long value(final int kind, final int p) {
        final ControlBlock c = members.controls[p];
        return switch (kind) {
            case EPOCH -> c.epochAcquire();
            case SENDS -> c.sendsAcquire(me);
            default -> c.consumedAcquire(me);
        };
    }

    private boolean reached(final int kind, final int peer, final long target) {
        if (peer >= 0) {
            return value(kind, peer) >= target;
        }
        while (from < size) {
            if (from != me && value(kind, from) < target) {
                return false;
            }
            from++;
        }
        return true;
    }

    private boolean pending(final int kind, final int peer, final long target, final int p) {
        return p != me && (peer < 0 ? p >= from : p == peer) && value(kind, p) < target;
    }

    /** Throws naming the first peer waited on that has left or died. */
    private void verify(final int kind, final int peer, final long target) {
        if (Thread.currentThread().isInterrupted()) {
            throw CctkException.environment(members.label(me) + " was interrupted while waiting during "
                    + during() + ".");
        }
        for (int p = 0; p < size; p++) {
            if (pending(kind, peer, target, p)) {
                if (members.controls[p].goneAcquire()) {
                    throw died(p, "left the shared-memory group");
                }
                if (!members.processes[p].alive()) {
                    throw died(p, "(process " + members.processes[p].pid() + ") is gone");
                }
            }
        }
    }

    /** The failure for a peer found dead: the shape of the tcp backend's ("rank 1 probably died"). */
    CctkException died(final int p, final String how) {
        return cctk.comm.PeerFailure.died(members::rankOf, me, members.label(p) + " " + how, during()
            + " in shared memory", new cctk.comm.PeerFault(p, cctk.comm.PeerFault.Kind.DIED, null, null, null), "",
            null);
    }

    private CctkException stalled(final int kind, final int peer, final long target, final boolean reading) {
        final java.util.List<cctk.comm.PeerFault> faults = new java.util.ArrayList<>();
        for (int p = 0; p < size; p++) {
            if (pending(kind, peer, target, p)) {
                faults.add(cctk.comm.PeerFault.waitedOn(p, reading, null, null, null));
            }
        }
        return cctk.comm.PeerFailure.stalled(members::rankOf, me, deadlineNanos / 1e9, during(), faults,
            " in shared memory", null);
    }

    private String during() {
        return operation + (bytes < 0 ? "" : " of " + bytes + " bytes" + (type == null ? "" : " of "
                + type.specName()));
    }
}
