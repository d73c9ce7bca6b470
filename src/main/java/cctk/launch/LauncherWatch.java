package cctk.launch;

import cctk.EnvVar;
import cctk.Environment;
import cctk.ExitCode;
import cctk.lifecycle.EarlyEnd;
import java.io.PrintWriter;
import java.util.Optional;

/**
 * A rank started by {@link LocalLauncher} stops when its launcher is gone (SIGKILL, a crash, a closed terminal),
 * instead of running its sweep to the end as an orphan of PID 1: its parent is no longer the launcher whose pid
 * {@code CCTK_LAUNCHER_PID} names (polled every {@value #POLL_MS} ms; a re-parented process has a new parent, so
 * a recycled pid cannot fool it). No thread reads the standard input for its end: a thread blocked in a native
 * read holds the JVM's exit back (measured: 0.3 s at the end of every rank). Ranks of srun, torchrun or mpirun are
 * not watched. The rank then stops as on a signal ({@link EarlyEnd#stop}): a running sweep writes its final files
 * with the cause; if that takes longer than {@value #HALT_AFTER_MS} ms it halts with {@link ExitCode#ENVIRONMENT}.
 * <b>Note:</b> one call per process.
 */
public final class LauncherWatch {

    static final int POLL_MS = 100;
    static final int HALT_AFTER_MS = 5_000;

    private LauncherWatch() {
    }

    /** Starts watching when {@code env} says a local launcher started this process; returns whether it does. */
    public static boolean startIfLaunched(final Environment env, final PrintWriter err) {
        final String pidText = env.optional(EnvVar.CCTK_LAUNCHER_PID);
        if (pidText == null || env.optional(EnvVar.CCTK_LAUNCH_ID) == null
                || !pidText.matches("[0-9]{1,10}")) {
            return false;
        }
        final long launcher = Long.parseLong(pidText);
        if (parent().orElse(-1L) != launcher) {
            gone(err, launcher, "it is not this rank's parent");
        }
        daemon(() -> {
            while (parent().orElse(-1L) == launcher) {
                try {
                    Thread.sleep(POLL_MS);
                } catch (final InterruptedException e) {
                    return;
                }
            }
            gone(err, launcher, "this rank has a new parent");
        }, "cctk-launcher-watch");
        return true;
    }

    private static Optional<Long> parent() {
        return ProcessHandle.current().parent().map(ProcessHandle::pid);
    }

    private static synchronized void gone(final PrintWriter err, final long launcher, final String sign) {
        err.println("cctk: the launcher that started this rank (cctk run or cctk demo, pid " + launcher + ") is gone ("
                + sign + "); this rank stops too.");
        err.flush();
        daemon(() -> {
            try {
                Thread.sleep(HALT_AFTER_MS);
            } catch (final InterruptedException e) {
                // halt anyway
            }
            EarlyEnd.halt(ExitCode.ENVIRONMENT.code());
        }, "cctk-launcher-halt");
        // as a signal would: a running sweep writes its final files with this cause, then the process halts
        EarlyEnd.stop("launcher gone: the cctk run or cctk demo (pid " + launcher + ") that started the ranks"
                + " ended without stopping them (" + sign + ")", "when its launcher went away");
        try {
            Thread.sleep(HALT_AFTER_MS); // another stop is finishing the files; the halt above ends the wait
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        EarlyEnd.halt(ExitCode.ENVIRONMENT.code());
    }

    private static void daemon(final Runnable r, final String name) {
        final Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }
}
