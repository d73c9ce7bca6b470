package cctk.comm.nccl;

import java.util.concurrent.TimeUnit;

/**
 * Keeps a rank from hanging, for the communicator's whole life: it polls the communicator's asynchronous error
 * (ncclCommGetAsyncError) from creation to {@link #close()}, so a peer that dies while NCCL connects lazily inside a
 * launch is seen too; while a call or a wait is armed it also enforces that call's deadline. On an error or a
 * passed deadline it aborts the communicator (ncclCommAbort) so the blocked call returns, records why and stops.
 * The driving thread then throws with {@link #reason()}. {@link #close()} waits for the thread, so no poll or
 * abort can overlap the communicator's destruction. One background thread per communicator, as PyTorch's NCCL
 * watchdog does.
 * <b>Note:</b> threadsafe.
 */
final class Watchdog implements AutoCloseable {

    /** The communicator as the watchdog sees it. */
    interface Health {
        /** ncclResult_t of ncclCommGetAsyncError: 0 success, 7 in progress, else an error. */
        int asyncError();

        /** Error text of a result code. */
        String errorText(int code);

        /** ncclCommAbort: every pending and later call on the communicator returns with an error. */
        void abort();
    }

    private static final int IN_PROGRESS = 7;
    /** How long close() waits for an abort in flight (ncclCommAbort returns once its threads are gone). */
    private static final long JOIN_MILLIS = 60_000;

    private final Health health;
    private final long pollNanos;
    private final Thread thread;
    private String what;
    private long deadline;
    private boolean armed;
    private long generation;
    private boolean closed;
    private volatile String reason;

    Watchdog(final Health health, final long pollMillis, final String name) {
        this.health = health;
        this.pollNanos = TimeUnit.MILLISECONDS.toNanos(pollMillis);
        this.thread = new Thread(this::watch, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Watches {@code what} (used in the message) until {@link #disarm()} or {@code timeoutNanos} from now. */
    synchronized void arm(final String what, final long timeoutNanos) {
        this.what = what;
        this.deadline = System.nanoTime() + timeoutNanos;
        this.armed = true;
        generation++;
    }

    /** Ends the deadline of the last {@link #arm}; the asynchronous error is still polled. */
    synchronized void disarm() {
        armed = false;
    }

    /** Why the communicator was aborted, or null while it is healthy. */
    String reason() {
        return reason;
    }

    /** Whether the watchdog's thread still runs (false once closed, or once it has aborted). */
    boolean running() {
        return thread.isAlive();
    }

    private void watch() {
        while (true) {
            final String current;
            final long due;
            final long gen;
            final boolean timed;
            synchronized (this) {
                if (closed) {
                    return;
                }
                timed = armed;
                current = armed ? what : (what == null ? "setup" : "the time after " + what);
                due = deadline;
                gen = generation;
            }
            final int code = health.asyncError();
            String why = null;
            if (code != 0 && code != IN_PROGRESS) {
                why = "NCCL reported '" + health.errorText(code) + "' (ncclResult " + code + ") during " + current;
            } else if (timed && System.nanoTime() - due > 0 && stillArmedFor(gen)) {
                why = current + " did not finish before the deadline";
            }
            if (why != null) {
                fire(why);
                return;
            }
            synchronized (this) {
                if (closed) {
                    return;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, pollNanos);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** A wait that ended just as its deadline passed must not abort the next one. */
    private synchronized boolean stillArmedFor(final long gen) {
        return armed && gen == generation;
    }

    private void fire(final String why) {
        synchronized (this) {
            if (reason != null || closed) {
                return;
            }
            reason = why;
        }
        health.abort();
    }

    /** Stops watching and waits (bounded) for the thread, an abort in flight included. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        if (Thread.currentThread() == thread) {
            return;
        }
        try {
            thread.join(JOIN_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
