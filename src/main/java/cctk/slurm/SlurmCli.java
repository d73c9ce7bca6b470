package cctk.slurm;

import cctk.CctkException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The Slurm client tools (sbatch, squeue, scontrol, sacct, scancel) run through one {@link ProcessRunner}. */
public final class SlurmCli {

    /** How long one client call may take; slurmctld answers in milliseconds when it is healthy. */
    public static final Duration CALL_DEADLINE = Duration.ofSeconds(60);

    private final ProcessRunner runner;
    private final Duration deadline;

    public SlurmCli(final ProcessRunner runner, final Duration deadline) {
        this.runner = runner;
        this.deadline = deadline;
    }

    public SlurmCli(final ProcessRunner runner) {
        this(runner, CALL_DEADLINE);
    }

    public ProcessRunner runner() {
        return runner;
    }

    /** Whether {@code tool} is on the PATH. */
    public boolean installed(final String tool) {
        return runner.which(tool).isPresent();
    }

    /** The message for a Slurm tool that is not installed. */
    static String notFound(final String tool) {
        return tool + " not found on PATH: is Slurm installed / module loaded? For a local test cluster run "
                + "scripts/slurm-local.sh start";
    }

    /**
     * Runs {@code tool args...} in {@code workDir}. Throws CctkException(ENVIRONMENT) when the tool is
     * missing or does not answer in time; any exit code is returned.
     */
    public ProcessRunner.Result call(final Path workDir, final String tool, final List<String> args) {
        if (!installed(tool)) {
            throw CctkException.environment(notFound(tool));
        }
        final List<String> argv = new ArrayList<>();
        argv.add(tool);
        argv.addAll(args);
        final ProcessRunner.Result r = runner.run(argv, workDir, deadline);
        if (r.timedOut()) {
            throw CctkException.environment(tool + " did not answer within " + deadline.toSeconds()
                    + " s and was stopped: is slurmctld reachable ('scontrol ping')?");
        }
        return r;
    }

    /** {@link #call} in the current directory. */
    public ProcessRunner.Result call(final String tool, final String... args) {
        return call(Path.of("").toAbsolutePath(), tool, List.of(args));
    }
}
