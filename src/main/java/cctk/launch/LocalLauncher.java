package cctk.launch;

import cctk.CctkException;
import cctk.EnvVar;
import cctk.ExitCode;
import cctk.spec.RankJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Starts the ranks of one world as processes on this machine, with the torchrun-style variables
 * cctk rank reads (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR=127.0.0.1, a free MASTER_PORT, a random
 * CCTK_SECRET and the CCTK_LAUNCH_ID mark), on top of this process's environment and the job's own variables
 * ({@link cctk.spec.JobEnvironment}: what the spec's {@code nccl_env} and {@code env} say, as the sbatch script
 * exports them). Their output is copied line by line, prefixed {@code [rank N] }.
 * Ranks that outnumber the launcher's CPUs are each bound to one of them ({@link CpuBinding}), and a line says how.
 * When a rank fails, the others get {@code grace} to fail on their own (they name the cause), then are stopped.
 * The result is the worst exit code of the ranks that ended on their own. <b>Note:</b> not threadsafe.
 */
public final class LocalLauncher {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Duration STOP_WAIT = Duration.ofSeconds(3);
    /** A process killed by signal N exits with 128 + N (as a shell shows it; Java's Process does the same). */
    private static final int SIGNALLED = 128;

    private final PrintWriter out;
    private final PrintWriter err;
    private final Duration grace;
    private final CpuBinding binding;

    /** A launcher that binds ranks that outnumber its CPUs ({@link CpuBinding.Mode#AUTO}). */
    public LocalLauncher(final PrintWriter out, final PrintWriter err, final Duration grace) {
        this(out, err, grace, CpuBinding.of(CpuBinding.Mode.AUTO));
    }

    /** A launcher that places its ranks on CPUs as {@code binding} says. */
    public LocalLauncher(final PrintWriter out, final PrintWriter err, final Duration grace,
                         final CpuBinding binding) {
        this.out = out;
        this.err = err;
        this.grace = grace;
        this.binding = binding;
    }

    /** {@code java -cp <this class path> cctk.cli.Main args...}: this cctk as a child process, sharing its archive. */
    public static List<String> cctkCommand(final List<String> args) {
        return cctkCommand(RankJvm.sharing(jar()), args);
    }

    /** {@code java <jvm> -cp <this class path> cctk.cli.Main args...}: this cctk with these JVM options. */
    public static List<String> cctkCommand(final List<String> jvm, final List<String> args) {
        final List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvm);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("cctk.cli.Main");
        cmd.addAll(args);
        return cmd;
    }

    /** The jar this cctk runs from, or null when it runs from class directories (tests). */
    public static Path jar() {
        final String cp = System.getProperty("java.class.path", "");
        return cp.endsWith(".jar") && !cp.contains(java.io.File.pathSeparator) ? Path.of(cp) : null;
    }

    /** Runs {@code command} as ranks 0..worldSize-1 and returns the worst exit code. */
    public int run(final int worldSize, final List<String> command) {
        return run(worldSize, command, Map.of());
    }

    /**
     * Runs {@code command} as ranks 0..worldSize-1, each with {@code jobEnv} added to this process's environment
     * (the rank variables above still win), and returns the worst exit code.
     */
    public int run(final int worldSize, final List<String> command, final Map<String, String> jobEnv) {
        final String launchId = "local-" + ProcessHandle.current().pid() + "-" + System.currentTimeMillis();
        final String secret = HexFormat.of().formatHex(randomBytes());
        final int port = freePort();
        final List<Process> ranks = new CopyOnWriteArrayList<>();
        final List<Thread> pumps = new ArrayList<>();
        final BlockingQueue<Integer> exited = new LinkedBlockingQueue<>();
        final Thread hook = new Thread(() -> stopAll(ranks), "cctk-launch-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        final String placed = binding.describe(worldSize);
        if (placed != null) {
            out.println("cctk run: " + placed);
            out.flush();
        }
        try {
            for (int r = 0; r < worldSize; r++) {
                final List<String> cmd = new ArrayList<>(binding.prefix(r, worldSize));
                cmd.addAll(command);
                final ProcessBuilder pb = new ProcessBuilder(cmd);
                final Map<String, String> env = pb.environment();
                env.putAll(jobEnv);
                env.put(EnvVar.RANK.name(), Integer.toString(r));
                env.put(EnvVar.WORLD_SIZE.name(), Integer.toString(worldSize));
                env.put(EnvVar.LOCAL_RANK.name(), Integer.toString(r));
                env.put(EnvVar.MASTER_ADDR.name(), "127.0.0.1");
                env.put(EnvVar.MASTER_PORT.name(), Integer.toString(port));
                env.put(EnvVar.CCTK_SECRET.name(), secret);
                env.put(EnvVar.CCTK_LAUNCH_ID.name(), launchId);
                env.put(EnvVar.CCTK_LAUNCHER_PID.name(), Long.toString(ProcessHandle.current().pid()));
                final Process p = start(pb, r);
                ranks.add(p);
                final int rank = r;
                pumps.add(pump(p.getInputStream(), out, rank));
                pumps.add(pump(p.getErrorStream(), err, rank));
                p.onExit().thenRun(() -> exited.add(rank));
            }
            return await(ranks, exited, pumps);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            stopAll(ranks);
            throw CctkException.failed("interrupted while the ranks ran; stopped them.");
        } finally {
            stopAll(ranks);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (final IllegalStateException e) {
                // the JVM is shutting down: the hook runs anyway
            }
        }
    }

    private int await(final List<Process> ranks, final BlockingQueue<Integer> exited, final List<Thread> pumps)
            throws InterruptedException {
        final boolean[] stopped = new boolean[ranks.size()];
        int worst = 0;
        int remaining = ranks.size();
        long stopAt = Long.MAX_VALUE;
        while (remaining > 0) {
            final long wait = stopAt - System.nanoTime();
            final Integer rank = stopAt == Long.MAX_VALUE ? exited.take() : exited.poll(wait, TimeUnit.NANOSECONDS);
            if (rank == null) {
                for (int r = 0; r < ranks.size(); r++) {
                    if (ranks.get(r).isAlive()) {
                        stopped[r] = true;
                        note("[cctk run] stopping rank " + r + ": another rank failed " + grace.toSeconds()
                                + " s ago");
                    }
                }
                stopAll(ranks);
                stopAt = Long.MAX_VALUE;
                continue;
            }
            remaining--;
            final int code = ranks.get(rank).exitValue();
            if (!stopped[rank] && code > SIGNALLED) {
                note("[cctk run] rank " + rank + " was killed by " + signalName(code - SIGNALLED) + " (exit status "
                        + code + ")" + (rank == 0 ? "; rank 0 hosts the rendezvous store and writes the result files,"
                        + " so the other ranks cannot go on" : ""));
            }
            if (!stopped[rank]) {
                worst = Math.max(worst, asExitCode(code));
                if (code != 0 && stopAt == Long.MAX_VALUE && remaining > 0) {
                    stopAt = System.nanoTime() + grace.toNanos();
                }
            }
        }
        for (final Thread t : pumps) {
            t.join(TimeUnit.SECONDS.toMillis(5));
        }
        return worst;
    }

    /** The name of signal {@code n} as kill -l prints it on Linux (signal(7)), or its number. */
    static String signalName(final int n) {
        final String[] names = {null, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS",
            "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM"};
        return n > 0 && n < names.length ? names[n] : "signal " + n;
    }

    /** cctk's own codes pass through; a JVM killed by a signal or crashing counts as an environment failure. */
    static int asExitCode(final int processCode) {
        return processCode >= 0 && processCode <= ExitCode.INCONCLUSIVE.code() ? processCode
                : ExitCode.ENVIRONMENT.code();
    }

    private Process start(final ProcessBuilder pb, final int rank) {
        try {
            return pb.start();
        } catch (final IOException e) {
            throw CctkException.environment("cannot start rank " + rank + " (" + pb.command().get(0) + "): "
                    + e.getMessage(), e);
        }
    }

    private static void stopAll(final List<Process> ranks) {
        final List<Process> alive = new ArrayList<>();
        for (final Process p : List.copyOf(ranks)) {
            if (p.isAlive()) {
                p.destroy();
                alive.add(p);
            }
        }
        final long end = System.nanoTime() + STOP_WAIT.toNanos();
        for (final Process p : alive) {
            try {
                if (!p.waitFor(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly();
                }
            } catch (final InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    private static Thread pump(final InputStream stream, final PrintWriter sink, final int rank) {
        final Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (sink) {
                        sink.println("[rank " + rank + "] " + line);
                        sink.flush();
                    }
                }
            } catch (final IOException e) {
                // the rank is gone; its exit code tells the rest
            }
        }, "cctk-launch-rank-" + rank);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private void note(final String line) {
        synchronized (err) {
            err.println(line);
            err.flush();
        }
    }

    /**
     * A port nobody listens on now; rank 0 reports clearly if another process takes it meanwhile. Public for the
     * class-data training (cli), which runs a local world of threads and so needs the same probe.
     */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (final IOException e) {
            throw CctkException.environment("cannot find a free TCP port on this machine: " + e.getMessage(), e);
        }
    }

    private static byte[] randomBytes() {
        final byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return b;
    }
}
