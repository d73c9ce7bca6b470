package cctk.cli;

import cctk.CctkException;
import cctk.launch.CpuBinding;
import cctk.launch.LocalCapacity;
import cctk.launch.LocalLauncher;
import cctk.launch.LocalRun;
import cctk.launch.LocalSpecs;
import cctk.spec.JobSpec;
import cctk.spec.SpecParser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
        footer = {"  cctk run configs/local.yaml",
            "  cctk run --nproc 2,4 --collectives all_reduce --sizes 1KiB,1MiB --dtypes float32,bfloat16 --iters 50"})
final class RunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "SPEC", description = "The job spec (configs/*.yaml).")
    Path specFile;

    @Option(names = "--nproc", split = ",", paramLabel = "N", description = "World sizes to run, without SPEC "
            + "(default: 2).")
    List<Integer> nproc = new ArrayList<>();

    @Option(names = "--backend", paramLabel = "B", completionCandidates = Candidates.Backends.class,
            description = "Backend: with SPEC, only this one of the spec's; without, the one to run (default: tcp):"
            + " ${COMPLETION-CANDIDATES}.")
    String backend;

    @Option(names = "--collectives", split = ",", paramLabel = "C", completionCandidates = Candidates.Collectives.class,
            description = "Without SPEC: collectives (default: all): ${COMPLETION-CANDIDATES}.")
    List<String> collectives = new ArrayList<>();

    @Option(names = "--sizes", split = ",", paramLabel = "S", description = "Without SPEC: message sizes "
            + "(4MiB, 512KiB, 1MB, or a number of elements; default: 1MiB).")
    List<String> sizes = new ArrayList<>();

    @Option(names = "--dtypes", split = ",", paramLabel = "T", completionCandidates = Candidates.DTypes.class,
            description = "Without SPEC: element types (default: float32): ${COMPLETION-CANDIDATES}.")
    List<String> dtypes = new ArrayList<>();

    @Option(names = "--ops", split = ",", paramLabel = "OP", completionCandidates = Candidates.Ops.class,
            description = "Without SPEC: reduce operators (default: sum): ${COMPLETION-CANDIDATES}.")
    List<String> ops = new ArrayList<>();

    @Option(names = "--warmup", paramLabel = "N", description = "Without SPEC: untimed iterations per measurement"
            + " (default: 5).")
    Integer warmup;

    @Option(names = "--iters", paramLabel = "N", description = "Without SPEC: timed iterations (default: 20).")
    Integer iters;

    @Option(names = "--check-iters", paramLabel = "N", description = "Without SPEC: separately checked iterations"
            + " (default: 1).")
    Integer checkIters;

    @Option(names = "--repeats", paramLabel = "N", description = "Without SPEC: separate timed loops per measurement,"
            + " interleaved with the others of its size; a row reports the median and the spread (default: 3).")
    Integer repeats;

    @Option(names = "--retime", paramLabel = "BOOL", arity = "1", description = "Without SPEC: time a loop again when"
            + " a JIT compile or a collection ran during it (default: true); false measures raw, every first loop"
            + " kept.")
    Boolean retime;

    @Option(names = "--window-ms", paramLabel = "MS", description = "Without SPEC: the shortest a timed loop lasts;"
            + " quicker calls run more iterations, up to 20 x iters (default: 10; 0: exactly iters, as nccl-tests).")
    Integer windowMillis;

    @Option(names = "--time-across-ranks", paramLabel = "HOW", completionCandidates = Candidates.TimeAcrossRanks.class,
            description = "Without SPEC: a loop's time from each rank's mean per call, ${COMPLETION-CANDIDATES}: the"
            + " max over ranks (default) or the mean over ranks (nccl-tests' default, its -a 1).")
    String timeAcrossRanks;

    @Option(names = "--in-place", paramLabel = "L", completionCandidates = Candidates.InPlace.class,
            description = "Without SPEC: buffer layouts, ${COMPLETION-CANDIDATES} (default: both).")
    String inPlace;

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", description = "Without SPEC: where the result files go"
            + " (default: results/run).")
    Path output;

    @Option(names = {"-q", "--quiet"}, description = "Print no table of the rows as they are measured (the files"
            + " and the closing list of them are written all the same).")
    boolean quiet;

    @Option(names = "--grace", paramLabel = "SECONDS", defaultValue = "10", description = "After a rank fails, how"
            + " long the others get to end on their own before they are stopped (default: ${DEFAULT-VALUE}).")
    int graceSeconds;

    @Option(names = LocalCapacity.OVERRIDE, description = "Start the ranks even when this machine cannot hold"
            + " them (by cores, memory or process limits); without it such a run is refused.")
    boolean oversubscribe;

    @Option(names = "--cpu-bind", paramLabel = "HOW", defaultValue = "auto", description = "Ranks that outnumber this"
            + " machine's CPUs (those cctk may use): auto binds each to one CPU (taskset -c; rank r on the (r mod n)-th"
            + " CPU), so the same ranks share a core in every run; none leaves them to the kernel (default:"
            + " ${DEFAULT-VALUE}). Ranks that fit one a CPU are never bound.")
    String cpuBind;

    @Override
    public Integer call() {
        if (graceSeconds < 0 || graceSeconds > 3600) {
            throw CctkException.usage("--grace: expected 0 to 3600 seconds, found " + graceSeconds + ".");
        }
        final CpuBinding.Mode bind = CpuBinding.Mode.ofFlag(cpuBind); // before a spec is read or anything made
        final LocalSpecs.Flags flags = new LocalSpecs.Flags(nproc, backend, collectives, sizes, dtypes, ops, warmup,
                iters, checkIters, inPlace, output, repeats, retime, windowMillis, timeAcrossRanks);
        final JobSpec job;
        if (specFile != null) {
            if (!nproc.isEmpty() || !collectives.isEmpty() || !sizes.isEmpty() || !dtypes.isEmpty() || !ops.isEmpty()
                    || warmup != null || iters != null || checkIters != null || inPlace != null || output != null
                    || repeats != null || retime != null || windowMillis != null || timeAcrossRanks != null) {
                throw CctkException.usage("--nproc, --collectives, --sizes, --dtypes, --ops, --warmup, --iters,"
                        + " --check-iters, --repeats, --retime, --window-ms, --time-across-ranks, --in-place and"
                        + " --output build a spec; with SPEC, edit the spec.");
            }
            job = SpecParser.parse(specFile);
            if (backend != null && !job.benchmark().backends().contains(backend)) {
                throw CctkException.usage("--backend " + backend + " is not one of the spec's backends "
                        + job.benchmark().backends() + ".");
            }
        } else {
            job = LocalSpecs.fromFlags(flags);
        }
        final List<String> rankArgs = new ArrayList<>(Main.stacktraceFlag(spec));
        if (quiet) {
            rankArgs.add("--quiet");
        }
        if (backend != null && specFile != null) {
            rankArgs.addAll(List.of("--backend", backend));
        }
        final LocalLauncher launcher = new LocalLauncher(spec.commandLine().getOut(), spec.commandLine().getErr(),
                Duration.ofSeconds(graceSeconds), CpuBinding.of(bind));
        return new LocalRun(spec.commandLine().getOut(), launcher).run(job, specFile, rankArgs, oversubscribe,
                specFile == null ? "--nproc" : "benchmark.tasks of " + specFile);
    }
}
