package cctk.comm.nccl;

import cctk.CctkException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * Keeps a rank from hanging without a second thread: NCCL forbids concurrent calls on one communicator, and
 * ncclCommAbort frees it, so an abort from another thread while the driving thread is inside NCCL (or about to
 * call it) can crash the JVM. The communicator is non-blocking (ncclCommInitRankConfig with config.blocking = 0,
 * NCCL ≥ 2.14): a call that returns ncclInProgress, and every wait for the stream, is polled here on the driving
 * thread with ncclCommGetAsyncError until it settles or its deadline passes. On an asynchronous error or a passed
 * deadline the driving thread itself calls ncclCommAbort, once, and throws one paragraph (exit code 3) naming the
 * operation, its size and the rank. With an NCCL older than 2.14 the communicator is blocking: its waits are still
 * bounded here, but a call that blocks inside NCCL cannot be.
 * <b>Note:</b> not threadsafe; only the communicator's driving thread uses it.
 */
final class Watchdog {

    /** The communicator as the driving thread polls it. */
    interface Health {
        /** ncclResult_t of ncclCommGetAsyncError: 0 success, 7 in progress, else an error. */
        int asyncError();

        /** Error text of a result code. */
        String errorText(int code);

        /** NCCL's last error message for this communicator ("" when none or unknown); read before an abort. */
        default String lastError() {
            return "";
        }

        /** ncclCommAbort: frees the communicator. */
        void abort();
    }

    /** ncclInProgress. */
    static final int IN_PROGRESS = 7;
    /** ncclRemoteError: "remote process exited or there was a network error", the one code that names a peer. */
    static final int REMOTE_ERROR = 6;
    private static final long POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

    private final Health health;
    private final int rank;
    private final long timeoutNanos;
    private boolean aborted;

    /** {@code timeoutNanos}: benchmark.timeout, the deadline of one call or of one iteration's wait. */
    Watchdog(final Health health, final int rank, final long timeoutNanos) {
        this.health = health;
        this.rank = rank;
        this.timeoutNanos = timeoutNanos;
    }

    /** The deadline of {@code iterations} iterations in one wait: one timeout each, saturating, at least one. */
    static long budget(final long perIterationNanos, final int iterations) {
        final long n = Math.max(1, iterations);
        return perIterationNanos > Long.MAX_VALUE / n ? Long.MAX_VALUE : perIterationNanos * n;
    }

    /** Whether this communicator has been aborted (it is freed: no NCCL call may use it again). */
    boolean aborted() {
        return aborted;
    }

    /** ncclCommAbort, at most once, on the calling (driving) thread. */
    void abort() {
        if (!aborted) {
            aborted = true;
            health.abort();
        }
    }

    /**
     * Makes one NCCL call; when it returns ncclInProgress, polls until the communicator settles. Returns
     * ncclSuccess or the call's own error; throws (after aborting) on an asynchronous error or a passed deadline.
     */
    int call(final String what, final IntSupplier call) {
        final long start = System.nanoTime();
        final int r = call.getAsInt();
        if (r == IN_PROGRESS) {
            settle(what, start, 1);
            return 0;
        }
        return r;
    }

    /** Polls ncclCommGetAsyncError until it is ncclSuccess, within {@code iterations} timeouts from start. */
    void settle(final String what, final long start, final int iterations) {
        long spins = 0;
        while (true) {
            final int code = health.asyncError();
            if (code == 0) {
                return;
            }
            if (code != IN_PROGRESS) {
                throw failure(what, code);
            }
            overdue(what, start, iterations);
            spins = pause(spins);
        }
    }

    /**
     * Polls {@code query} (cudaStreamQuery or cudaEventQuery) until it is cudaSuccess, watching the communicator's
     * asynchronous error, within {@code iterations} timeouts from now. Returns 0, or the query's own CUDA error.
     */
    int await(final String what, final IntSupplier query, final int iterations, final int notReady) {
        final long start = System.nanoTime();
        long spins = 0;
        while (true) {
            final int r = query.getAsInt();
            if (r != notReady) {
                return r;
            }
            final int code = health.asyncError();
            if (code != 0 && code != IN_PROGRESS) {
                throw failure(what, code);
            }
            overdue(what, start, iterations);
            spins = pause(spins);
        }
    }

    private void overdue(final String what, final long start, final int iterations) {
        final long elapsed = System.nanoTime() - start;
        if (elapsed - budget(timeoutNanos, iterations) > 0) {
            abort();
            throw CctkException.environment(deadlineText(rank, what, iterations, elapsed, timeoutNanos));
        }
    }

    private static long pause(final long spins) {
        if (spins > 1000) {
            LockSupport.parkNanos(POLL_NANOS);
        } else {
            Thread.onSpinWait();
        }
        return spins + 1;
    }

    private CctkException failure(final String what, final int code) {
        final String last = health.lastError();
        final String text = health.errorText(code);
        abort();
        return CctkException.environment(errorText(rank, what, code, text, last));
    }

    /** The paragraph for an asynchronous NCCL error; a peer is blamed only when NCCL says a remote failed. */
    static String errorText(final int rank, final String what, final int code, final String text,
                            final String last) {
        final String lastText = last == null || last.isBlank() ? "" : ": " + last.trim();
        return "The nccl backend aborted rank " + rank + "'s communicator: NCCL reported '" + text + "' (ncclResult "
                + code + ")" + lastText + " during " + what + "."
                + (code == REMOTE_ERROR ? " A peer may have died or its network failed; see the other ranks'"
                + " output." : " Run with nccl.debug: true and read the rank's NCCL debug file.");
    }

    /** The paragraph for a passed deadline: what was measured, and no peer blamed (NCCL reported no error). */
    static String deadlineText(final int rank, final String what, final int iterations, final long elapsedNanos,
                               final long perIterationNanos) {
        final String seconds = String.format(Locale.ROOT, "%.1f", elapsedNanos / 1e9);
        final long per = TimeUnit.NANOSECONDS.toSeconds(perIterationNanos);
        final String measured = iterations > 1
                ? iterations + " iterations of " + what + " had not finished after " + seconds + " s (deadline "
                + iterations + " × " + per + " s, benchmark.timeout per iteration)"
                : what + " had not finished after " + seconds + " s (deadline " + per + " s, benchmark.timeout)";
        return "The nccl backend aborted rank " + rank + "'s communicator: " + measured + "; NCCL reported no"
                + " error. A slow first run (NCCL falling back to sockets: see the transport with nccl.debug: true)"
                + " or a hung peer would both do this; raise benchmark.timeout if the network is just slow.";
    }
}
