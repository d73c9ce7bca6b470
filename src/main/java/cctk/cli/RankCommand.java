package cctk.cli;

import cctk.Environment;
import cctk.ExitCode;
import cctk.diagnose.probe.DiagnoseRank;
import cctk.launch.LauncherWatch;
import cctk.rank.Backends;
import cctk.rank.RankMain;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cctk rank}: what every task of a job runs. */
@Command(name = "rank", mixinStandardHelpOptions = true,
        description = {"Runs one rank of a job: finds out which rank it is (from Slurm's SLURM_* variables, else "
            + "torchrun's RANK/WORLD_SIZE/MASTER_ADDR, else Open MPI's), meets the other ranks at rank 0's "
            + "rendezvous store (MASTER_ADDR/MASTER_PORT, else the first node and a port derived from the job and "
            + "step id; CCTK_SECRET must be the same on every rank), then runs the spec's benchmark on each "
            + "backend, or, for a spec with a diagnose: section, its part of the diagnosis.",
            "Without --spec it only says who it is and waits at one barrier for every rank.",
            "Started by srun in the rendered sbatch script, or by 'cctk run'; rarely by hand."})
final class RankCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--spec", paramLabel = "FILE", description = "The (frozen) job spec to run.")
    Path specFile;

    @Option(names = "--backend", paramLabel = "B", completionCandidates = Candidates.Backends.class,
            description = "Run only this backend of the spec (${COMPLETION-CANDIDATES}, or the spec's"
                    + " nccl.backend_name).")
    String backend;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "Who-am-I mode: how long to wait for the other ranks (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Option(names = "--quiet", description = "Print no table of the rows as they are measured (rank 0).")
    boolean quiet;

    @Override
    public Integer call() {
        return run(spec.commandLine().getOut(), spec.commandLine().getErr(), Environment.process(), specFile, backend,
                timeoutSeconds, quiet);
    }

    /** One rank (also {@link RankFastPath}'s, without picocli). */
    static int run(final PrintWriter out, final PrintWriter err, final Environment env, final Path specFile,
                   final String backend, final int timeoutSeconds, final boolean quiet) {
        Main.checkTimeout(timeoutSeconds);
        LauncherWatch.startIfLaunched(env, err);
        final RankMain main = new RankMain(env, out, err);
        final ExitCode code = specFile == null
                ? main.whoAmI(Duration.ofSeconds(timeoutSeconds))
                : DiagnoseRank.wanted(specFile) ? new DiagnoseRank(env, out, err).run(specFile)
                : main.run(specFile, backend, new Backends(env), quiet);
        out.flush();
        return code.code();
    }
}
