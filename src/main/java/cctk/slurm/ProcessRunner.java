package cctk.slurm;

import cctk.CctkException;
import cctk.EnvVar;
import cctk.Environment;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.commons.exec.CommandLine;
import org.apache.commons.exec.DefaultExecutor;
import org.apache.commons.exec.ExecuteWatchdog;
import org.apache.commons.exec.PumpStreamHandler;

/**
 * Runs an external program as an argv list (never through a shell) with a watchdog deadline and
 * returns its exit code and output. Every child gets this process's environment minus the
 * inherited {@code SBATCH_*} variables: sbatch reads them as options, so a stray
 * {@code SBATCH_TIMELIMIT} or {@code SBATCH_PARTITION} in the user's shell would silently change a job.
 */
public final class ProcessRunner {

    /** Prefix of the variables that are never passed on. */
    public static final String SCRUBBED_PREFIX = "SBATCH_";

    /** What a finished (or killed) program left behind. */
    public record Result(int exit, String stdout, String stderr, boolean timedOut) {
        public boolean ok() {
            return exit == 0 && !timedOut;
        }
    }

    private final Map<String, String> environment;
    private final List<String> scrubbed;

    /** @param inherited the environment to start from; @param log receives one line if anything was scrubbed */
    public ProcessRunner(final Map<String, String> inherited, final Consumer<String> log) {
        final Map<String, String> env = new TreeMap<>(inherited);
        final List<String> removed = new ArrayList<>();
        env.keySet().removeIf(k -> {
            final boolean drop = k.startsWith(SCRUBBED_PREFIX);
            if (drop) {
                removed.add(k);
            }
            return drop;
        });
        this.environment = Collections.unmodifiableMap(env);
        this.scrubbed = List.copyOf(removed);
        if (!removed.isEmpty()) {
            log.accept("note: not passing " + String.join(", ", removed) + " on to Slurm commands"
                    + " (inherited SBATCH_* variables would silently change the job)");
        }
    }

    /** A runner over this JVM's environment. */
    public static ProcessRunner fromSystem(final Consumer<String> log) {
        return new ProcessRunner(Environment.process().toMap(), log);
    }

    /** The environment every child sees. */
    public Map<String, String> environment() {
        return environment;
    }

    /** Names of the inherited variables left out. */
    public List<String> scrubbed() {
        return scrubbed;
    }

    /** The executable {@code program} resolves to on this runner's PATH, if any. */
    public Optional<Path> which(final String program) {
        if (program.contains("/")) {
            final Path p = Path.of(program);
            return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
        }
        final String path = environment.getOrDefault(EnvVar.PATH.name(), "");
        for (final String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            final Path candidate = Path.of(dir, program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The Commons Exec line for {@code argv}: every argument verbatim, no quote handling. */
    static CommandLine commandLine(final Path executable, final List<String> args) {
        final CommandLine line = new CommandLine(executable.toString());
        for (final String arg : args) {
            line.addArgument(arg, false);
        }
        return line;
    }

    /**
     * Runs {@code argv} in {@code workDir}, killing it after {@code deadline}. A non-zero exit is a
     * normal result; a program that is not installed or cannot start is a CctkException(ENVIRONMENT).
     */
    public Result run(final List<String> argv, final Path workDir, final Duration deadline) {
        final String program = argv.get(0);
        final Path exe = which(program).orElseThrow(() -> CctkException.environment(
                program + " not found on PATH (" + environment.getOrDefault(EnvVar.PATH.name(), "") + ")."));
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final ExecuteWatchdog watchdog = ExecuteWatchdog.builder().setTimeout(deadline).get();
        final DefaultExecutor executor = DefaultExecutor.builder()
                .setWorkingDirectory(workDir.toFile())
                .setExecuteStreamHandler(new PumpStreamHandler(out, err))
                .get();
        executor.setWatchdog(watchdog);
        executor.setExitValues(null);
        int exit;
        try {
            exit = executor.execute(commandLine(exe, argv.subList(1, argv.size())), environment);
        } catch (IOException e) {
            throw CctkException.environment("could not run " + program + ": " + e.getMessage(), e);
        }
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
                watchdog.killedProcess());
    }
}
