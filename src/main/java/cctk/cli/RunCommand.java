package cctk.cli;

import cctk.CctkException;
import cctk.launch.LocalCapacity;
import cctk.launch.LocalLauncher;
import cctk.launch.LocalSpecs;
import cctk.spec.JobSpec;
import cctk.spec.RankJvm;
import cctk.spec.SpecParser;
import cctk.spec.SpecWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cctk run}: the ranks of a spec as processes on this machine. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Runs a job on this machine without Slurm: for each world size in the spec's "
            + "benchmark.tasks it starts that many 'cctk rank' processes, which meet over 127.0.0.1, prints their "
            + "output prefixed with [rank N], and exits with the worst exit code of the ranks.",
            "Without SPEC, a spec is built from the flags (backend tcp unless --backend)."},
        footerHeading = "%nExamples:%n",
        footer = {"  cctk run configs/local.yaml", "  cctk run --nproc 2,4 --collectives all_reduce --sizes 1KiB,1MiB"})
final class RunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "SPEC", description = "The job spec (configs/*.yaml).")
    Path specFile;

    @Option(names = "--nproc", split = ",", paramLabel = "N", description = "World sizes to run, without SPEC "
            + "(default: 2).")
    List<Integer> nproc = new ArrayList<>();

    @Option(names = "--backend", paramLabel = "B", description = "Backend: with SPEC, only this one of the spec's;"
            + " without, the one to run (default: tcp).")
    String backend;

    @Option(names = "--collectives", split = ",", paramLabel = "C", description = "Without SPEC: collectives "
            + "(all_reduce, all_gather, reduce_scatter, broadcast, alltoall, ...).")
    List<String> collectives = new ArrayList<>();

    @Option(names = "--sizes", split = ",", paramLabel = "S", description = "Without SPEC: message sizes "
            + "(4MiB, 512KiB, or a number of elements).")
    List<String> sizes = new ArrayList<>();

    @Option(names = "--grace", paramLabel = "SECONDS", defaultValue = "10", description = "After a rank fails, how"
            + " long the others get to end on their own before they are stopped (default: ${DEFAULT-VALUE}).")
    int graceSeconds;

    @Option(names = LocalCapacity.OVERRIDE, description = "Start the ranks even when this machine cannot hold"
            + " them (by cores, memory or process limits); without it such a run is refused.")
    boolean oversubscribe;

    @Override
    public Integer call() {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final JobSpec job;
        final Path file;
        if (specFile != null) {
            if (!nproc.isEmpty() || !collectives.isEmpty() || !sizes.isEmpty()) {
                throw CctkException.usage("--nproc, --collectives and --sizes build a spec; with SPEC, edit the spec.");
            }
            job = SpecParser.parse(specFile);
            file = specFile.toAbsolutePath();
        } else {
            if (backend != null && !List.of("tcp", "nccl").contains(backend)) {
                throw CctkException.usage("--backend: unknown backend '" + backend + "'; without SPEC it is tcp or"
                        + " nccl (a library under another name needs a spec's nccl.backend_name).");
            }
            job = LocalSpecs.fromFlags(nproc.isEmpty() ? List.of(2) : nproc, backend == null ? "tcp" : backend,
                    collectives, sizes);
            file = frozen(job);
        }
        if (graceSeconds < 0 || graceSeconds > 3600) {
            throw CctkException.usage("--grace: expected 0 to 3600 seconds, found " + graceSeconds + ".");
        }
        final LocalCapacity capacity = LocalCapacity.probe();
        final long perRank = LocalCapacity.RANK_BASE_BYTES + 3 * RankJvm.largest(job.benchmark());
        for (final int world : job.benchmark().taskCounts()) {
            capacity.check(world, perRank, oversubscribe, specFile == null ? "--nproc" : "benchmark.tasks of "
                    + specFile);
        }
        final LocalLauncher launcher = new LocalLauncher(out, err, Duration.ofSeconds(graceSeconds));
        final Map<String, String> env = LocalSpecs.environment(job);
        int worst = 0;
        for (final int world : job.benchmark().taskCounts()) {
            out.println("cctk run: " + world + " rank(s) of " + file);
            out.flush();
            final List<String> args = new ArrayList<>(List.of("rank", "--spec", file.toString()));
            args.addAll(Main.stacktraceFlag(spec));
            if (backend != null && specFile != null) {
                args.addAll(List.of("--backend", backend));
            }
            worst = Math.max(worst, launcher.run(world, LocalLauncher.cctkCommand(RankJvm.options(job,
                    LocalLauncher.jar()), args), env));
        }
        return worst;
    }

    private static Path frozen(final JobSpec job) {
        try {
            final Path f = Files.createTempFile("cctk-run-", ".yaml");
            Files.writeString(f, SpecWriter.toYaml(job));
            f.toFile().deleteOnExit();
            return f;
        } catch (final IOException e) {
            throw CctkException.environment("cannot write the spec built from the flags: " + e.getMessage(), e);
        }
    }
}
