package cctk.comm.nccl;

import java.util.concurrent.TimeUnit;

/**
 * Keeps a rank from hanging: while armed it polls the communicator's asynchronous error (ncclCommGetAsyncError)
 * and, on an error or when the deadline passes, aborts the communicator (ncclCommAbort) so the blocked call
 * returns, and records why. The driving thread then throws with {@link #reason()}. One background thread per
 * communicator, as PyTorch's NCCL watchdog does.
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
        notifyAll();
    }

    synchronized void disarm() {
        armed = false;
    }

    /** Why the communicator was aborted, or null while it is healthy. */
    String reason() {
        return reason;
    }

    private void watch() {
        while (true) {
            final String current;
            final long due;
            final long gen;
            synchronized (this) {
                while (!closed && (!armed || reason != null)) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (closed) {
                    return;
                }
                current = what;
                due = deadline;
                gen = generation;
            }
            final int code = health.asyncError();
            String why = null;
            if (code != 0 && code != IN_PROGRESS) {
                why = "NCCL reported '" + health.errorText(code) + "' (ncclResult " + code + ") during " + current;
            } else if (System.nanoTime() - due > 0 && stillArmedFor(gen)) {
                why = current + " did not finish before the deadline";
            }
            if (why != null) {
                fire(why);
                continue;
            }
            try {
                TimeUnit.NANOSECONDS.sleep(pollNanos);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** A wait that ended just as its deadline passed must not abort the next one. */
    private synchronized boolean stillArmedFor(final long gen) {
        return armed && gen == generation;
    }

    private void fire(final String why) {
        synchronized (this) {
            if (reason != null) {
                return;
            }
            reason = why;
        }
        health.abort();
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        thread.interrupt();
    }
}
