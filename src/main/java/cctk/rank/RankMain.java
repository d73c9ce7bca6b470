package cctk.rank;

import cctk.CctkException;
import cctk.EnvVar;
import cctk.Environment;
import cctk.ExitCode;
import cctk.bench.RunContext;
import cctk.bench.SweepResult;
import cctk.comm.Store;
import cctk.results.RankInfo;
import cctk.results.judge.ReferenceJudge;
import cctk.results.Result;
import cctk.spec.JobSpec;
import cctk.spec.SpecParser;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What every task runs: who am I, meet the others, then each backend of the spec through the harness.
 * <b>Note:</b> one call per process.
 */
public final class RankMain {

    /** Runs the benchmark on one backend ({@link Backends#run} in production; tests pass their own). */
    @FunctionalInterface
    public interface BackendRun {
        SweepResult run(String backend, RankIdentity id, Store store, JobSpec spec, RunContext context);
    }

    private final Environment env;
    private final PrintWriter out;
    private final PrintWriter err;

    public RankMain(final Environment env, final PrintWriter out, final PrintWriter err) {
        this.env = env;
        this.out = out;
        this.err = err;
    }

    /** Who am I: prints the identity, joins the store and passes one barrier with every rank. */
    public ExitCode whoAmI(final Duration timeout) {
        final RankIdentity id = RankIdentity.fromEnvironment(env);
        final byte[] secret = Rendezvous.secret(env);
        out.println(id.describe());
        out.flush();
        try (Rendezvous store = Rendezvous.join(id, secret, Rendezvous.localHostName(env), timeout, this::note)) {
            store.barrier("whoami");
            out.println("rank " + id.rank() + ": all " + id.worldSize() + " ranks met at "
                    + id.rendezvousHost() + ":" + id.rendezvousPort());
        }
        return ExitCode.OK;
    }

    /** The benchmark flow, with rank 0's table of the rows as they are measured. */
    public ExitCode run(final Path specFile, final String onlyBackend, final BackendRun backends) {
        return run(specFile, onlyBackend, backends, false);
    }

    /**
     * The benchmark flow: the spec's backends (or only {@code onlyBackend}) at this step's world size; rank 0 prints
     * each row as it is measured on standard output unless {@code quiet}.
     */
    public ExitCode run(final Path specFile, final String onlyBackend, final BackendRun backends,
                        final boolean quiet) {
        final RankIdentity id = RankIdentity.fromEnvironment(env);
        cctk.lifecycle.EarlyEnd.install("rank " + id.rank());
        final JobSpec spec = SpecParser.parse(specFile, env.optional(EnvVar.CCTK_SPEC_SHA256));
        timeLimit(spec);
        final List<Integer> sizes = spec.benchmark().taskCounts();
        if (!sizes.contains(id.worldSize())) {
            throw CctkException.usage("this step has " + id.worldSize() + " ranks, but " + specFile + " runs with "
                    + sizes + " (benchmark.tasks); start the step with one of those task counts.");
        }
        final List<String> names = onlyBackend == null ? spec.benchmark().backends() : List.of(onlyBackend);
        if (onlyBackend != null && !spec.benchmark().backends().contains(onlyBackend)) {
            throw CctkException.usage("--backend " + onlyBackend + " is not one of the spec's backends "
                    + spec.benchmark().backends() + ".");
        }
        final Duration timeout = Duration.ofSeconds(spec.benchmark().timeoutSeconds());
        final List<Result> measured = new ArrayList<>();
        ExitCode worst = ExitCode.OK;
        try (Rendezvous store = Rendezvous.join(id, Rendezvous.secret(env), Rendezvous.localHostName(env), timeout,
                this::note)) {
            // stopped by a signal, this rank leaves the store as one that said goodbye: the store's notice that a
            // rank disconnected then always means one that crashed or was killed
            cctk.lifecycle.EarlyEnd.beforeHalt("store", store::farewell);
            if (id.rank() == 0) {
                out.println(id.describe());
            }
            final RunContext context = context(id, spec, specFile, quiet);
            for (final String backend : names) {
                store.barrier("begin/" + backend);
                final SweepResult sweep = backends.run(backend, id, store, spec, context);
                measured.addAll(sweep.results());
                worst = sweep.code().code() > worst.code() ? sweep.code() : worst;
            }
            store.barrier("end");
        }
        if (id.rank() == 0) {
            final ExitCode refs = ReferenceJudge.endOfRun(spec.references(), names, measured, out);
            worst = refs.code() > worst.code() ? refs : worst;
        }
        return worst;
    }

    /**
     * Tells EarlyEnd when the job ends, so that a SIGUSR1 long before the limit is not taken for Slurm's warning:
     * Slurm's SLURM_JOB_END_TIME, else SLURM_JOB_START_TIME plus the spec's limit; unknown outside Slurm.
     */
    private void timeLimit(final JobSpec spec) {
        final long limit = spec.job() == null ? 0 : spec.job().timeLimitSeconds();
        if (limit <= 0) {
            cctk.lifecycle.EarlyEnd.timeLimit(0, 0);
            return;
        }
        long end = epochSeconds(env.optional(cctk.EnvVar.SLURM_JOB_END_TIME));
        final long start = epochSeconds(env.optional(cctk.EnvVar.SLURM_JOB_START_TIME));
        if (end <= 0 && start > 0) {
            end = start + limit;
        }
        cctk.lifecycle.EarlyEnd.timeLimit(end, cctk.spec.Job.warningSeconds(spec.job().timeLimit()));
    }

    private static long epochSeconds(final String v) {
        return v != null && v.matches("[0-9]{1,12}") ? Long.parseLong(v) : 0;
    }

    private RunContext context(final RankIdentity id, final JobSpec spec, final Path specFile, final boolean quiet) {
        final List<String> nics = spec.resources().nics();
        final RankInfo me = new RankInfo(id.rank(), Rendezvous.localHostName(env), ProcessHandle.current().pid(),
                id.localRank(), id.nodeIndex(), cpuDevice(cctk.CpuList.allowed(), cctk.CpuList.online()),
                nics.isEmpty() ? "default" : String.join(",", nics));
        final String version = RankMain.class.getPackage().getImplementationVersion();
        return new RunContext(version == null ? "dev" : version, specFile, id.jobId(), me,
                Path.of(spec.job().outputDir()), env.shown(), TestFaults.from(env), quiet ? null : out);
    }

    /**
     * The device of a rank that computes on the host: {@code cpu}, and the CPUs it is bound to where it may use fewer
     * than are online ({@code cpu (bound to CPU 1)}: cctk run's binding, taskset's, a cpuset's or Slurm's).
     */
    static String cpuDevice(final cctk.CpuList allowed, final cctk.CpuList online) {
        if (allowed == null || online == null || allowed.size() >= online.size()) {
            return "cpu";
        }
        return "cpu (bound to CPU" + (allowed.size() == 1 ? " " : "s ") + allowed.text() + ")";
    }

    private void note(final String line) {
        err.println(line);
        err.flush();
    }
}
