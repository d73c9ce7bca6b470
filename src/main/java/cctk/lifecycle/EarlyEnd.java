package cctk.lifecycle;

import cctk.ExitCode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToIntFunction;
import sun.misc.Signal;

/**
 * The signals that end a rank early, handled so that the rows measured so far reach the final result files.
 * Slurm sends SIGTERM to every task on {@code scancel} and at the time limit, and SIGKILL KillWait seconds
 * later; the rendered script asks for SIGUSR1 before the time limit ({@code #SBATCH --signal}), see Slurm's
 * sbatch and scancel documentation. On SIGTERM, SIGINT, SIGHUP or SIGUSR1 the process abandons the point it is
 * measuring, lets the running sweep (the stopper the benchmark harness registers) write its final files with the
 * cause, and exits with {@link ExitCode#FAILED}: the run did not complete. Before the process halts, what it
 * registered with {@link #beforeHalt} runs (it says goodbye to the rendezvous store, so that the store does not
 * report it as crashed, and removes its shared-memory files): a halt skips shutdown hooks and try-with-resources.
 * <b>Note:</b> threadsafe; one per process (static).
 */
public final class EarlyEnd {

    private static final String[] SIGNALS = {"TERM", "INT", "HUP", "USR1"};
    private static final AtomicBoolean STOPPING = new AtomicBoolean();
    private static volatile ToIntFunction<String> stopper;
    private static volatile String who = "cctk";
    private static volatile boolean warned;
    /** When the job's time limit ends, in epoch seconds; 0 when unknown. */
    private static volatile long endsAt;
    /** How long before the limit the job script asks for SIGUSR1, in seconds; 0 without a time limit. */
    private static volatile long lead;
    private static boolean installed;
    private static final Map<String, Runnable> BEFORE_HALT = new ConcurrentHashMap<>();

    private EarlyEnd() {
    }

    /** Handles the signals from now on in this process; {@code name} is how messages name it ("rank 3"). */
    public static synchronized void install(final String name) {
        who = name;
        if (installed) {
            return;
        }
        installed = true;
        for (final String s : SIGNALS) {
            try {
                Signal.handle(new Signal(s), EarlyEnd::onSignal);
            } catch (IllegalArgumentException e) {
                // the JVM keeps this signal (-Xrs, or not on this system): its default stays
            }
        }
    }

    /**
     * What tells Slurm's time-limit warning (SIGUSR1 {@code lead} seconds before the limit) from a SIGUSR1 sent by
     * hand ({@code scancel --signal=USR1}): {@code endsAt}, the job's end in epoch seconds (0: unknown), and
     * {@code lead} (0: the job has no time limit, so no warning comes).
     */
    public static void timeLimit(final long endsAtEpochSeconds, final long leadSeconds) {
        endsAt = endsAtEpochSeconds;
        lead = leadSeconds;
    }

    /**
     * Whether a SIGUSR1 at {@code nowEpochSeconds} is Slurm's time-limit warning: true unless the time left shows
     * otherwise. Slurm may send it up to 60 s before the lead it was asked for (sbatch's --signal documentation).
     */
    static boolean isWarning(final long nowEpochSeconds, final long endsAtEpochSeconds, final long leadSeconds) {
        if (endsAtEpochSeconds <= 0) {
            return leadSeconds > 0;
        }
        return endsAtEpochSeconds - nowEpochSeconds <= leadSeconds + 60 + 5;
    }

    /**
     * Who finishes the files on a signal and says the exit code (null: nobody; the process exits with
     * {@link ExitCode#FAILED}).
     */
    public static void stopper(final ToIntFunction<String> s) {
        stopper = s;
    }

    /**
     * Runs {@code action} just before this process halts early (a signal, its launcher gone), once; registering
     * another action under the same {@code name} replaces it. Actions must be quick and must not wait on peers.
     */
    public static void beforeHalt(final String name, final Runnable action) {
        BEFORE_HALT.put(name, action);
    }

    /** Runs the {@link #beforeHalt} actions (each once; a failing one does not stop the others), then halts. */
    public static void halt(final int code) {
        for (final String name : BEFORE_HALT.keySet()) {
            final Runnable action = BEFORE_HALT.remove(name);
            try {
                if (action != null) {
                    action.run();
                }
            } catch (RuntimeException | Error e) {
                // halting anyway: what is left, a later run cleans up
            }
        }
        Runtime.getRuntime().halt(code);
    }

    /** The words of a result file's Incomplete line for a signal ({@code USR1}, {@code TERM}, ...). */
    static String cause(final String signal, final boolean afterWarning) {
        return cause(signal, afterWarning, -1);
    }

    /**
     * The words of a result file's Incomplete line for a signal; {@code secondsLeft}: of the job's time limit when a
     * SIGUSR1 came that was not the warning, else -1 (a SIGUSR1 is then the warning).
     */
    static String cause(final String signal, final boolean afterWarning, final long secondsLeft) {
        if ("USR1".equals(signal) && secondsLeft >= 0) {
            return "a USR1 signal (not the time-limit warning: " + secondsLeft + " s of the job's time limit were"
                + " left), e.g. scancel --signal=USR1";
        }
        return switch (signal) {
            case "USR1" -> "time limit: Slurm's warning signal (SIGUSR1) came before the job's time limit";
            case "TERM" -> afterWarning ? "time limit: Slurm ended the job (SIGTERM)"
                : "cancelled: SIGTERM (scancel, or Slurm ending the job or step)";
            case "INT" -> "interrupted: SIGINT";
            case "HUP" -> "hang-up: SIGHUP";
            default -> "signal SIG" + signal;
        };
    }

    private static void onSignal(final Signal s) {
        final long now = System.currentTimeMillis() / 1000;
        final boolean usr1 = "USR1".equals(s.getName());
        final boolean warning = usr1 && isWarning(now, endsAt, lead);
        final long left = usr1 && !warning ? (endsAt > 0 ? Math.max(0, endsAt - now) : -1) : -1;
        final String cause = usr1 && !warning && left < 0
            ? "a USR1 signal (not the time-limit warning: the job has no time limit)"
            : cause(s.getName(), warned, left);
        if (warning) {
            warned = true;
        }
        stop(cause, "on " + s.getName());
    }

    /**
     * Ends the process early for {@code cause} (e.g. its launcher is gone), as a signal does: the running sweep
     * writes its final files with that cause, then the process halts. {@code how} ends the last message when the
     * sweep reports a fault rather than an early stop. Never returns.
     */
    public static void stop(final String cause, final String how) {
        if (!STOPPING.compareAndSet(false, true)) {
            return; // the first stop is finishing the files and ends the process
        }
        int code = ExitCode.FAILED.code();
        try {
            final ToIntFunction<String> stop = stopper;
            if (stop != null) {
                code = stop.applyAsInt(cause);
            }
        } catch (RuntimeException | Error e) {
            System.err.println("cctk: " + who + " could not finish its result files after " + cause + ": "
                + cctk.IoErrors.why(e));
        } finally {
            System.err.println("cctk: " + who + (code == ExitCode.FAILED.code() ? " stopped early: " + cause
                : " ended " + how + " after a fault") + "; exit code " + code + ".");
            System.err.flush();
            halt(code);
        }
    }
}
