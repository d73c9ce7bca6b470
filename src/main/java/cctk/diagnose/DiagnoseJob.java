package cctk.diagnose;

import cctk.CctkException;
import cctk.Environment;
import cctk.ExitCode;
import cctk.Json;
import cctk.Printable;
import cctk.render.SbatchRenderer;
import cctk.render.ScriptFiles;
import cctk.slurm.JobFollower;
import cctk.slurm.JobStatus;
import cctk.slurm.Manifest;
import cctk.slurm.ProcessRunner;
import cctk.slurm.SlurmCli;
import cctk.slurm.Submitter;
import cctk.spec.Diagnose;
import cctk.spec.JobSpec;
import cctk.spec.SpecParser;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code cctk diagnose SPEC}: the spec as a diagnosing job (its {@code diagnose:} section, or the defaults), rendered
 * into one sbatch script whose single step runs every task, submitted, followed to its end; then the verdict the
 * job wrote is printed. Exit code: 0 healthy within the run's sensitivity, 1 a suspect (or a job that ended
 * without a verdict), 2 a bad spec, 3 Slurm could not be reached, 5 inconclusive ({@code Sensitivity}).
 * <b>Note:</b> one call per command.
 */
public final class DiagnoseJob {

    /**
     * What to do.
     *
     * @param specFile  the spec
     * @param jobDir    where the script and manifest go, or null for jobs/<name>/<stamp>
     * @param sbatchArgs extra sbatch arguments
     * @param dryRun    render and print the sbatch command only
     * @param await     follow the job and print its verdict
     * @param waitLimit how long to follow it
     * @param version   cctk's version, in the script
     */
    public record Request(Path specFile, Path jobDir, List<String> sbatchArgs, boolean dryRun, boolean await,
                          Duration waitLimit, String version) {
    }

    private DiagnoseJob() {
    }

    /** Renders, submits and follows the diagnosis; prints the verdict. */
    public static ExitCode run(final Request r, final PrintWriter out, final PrintWriter err) {
        final JobSpec parsed = SpecParser.parse(r.specFile());
        final JobSpec spec = parsed.diagnose() != null ? parsed : parsed.withDiagnose(Diagnose.DEFAULT);
        final Path submitDir = Path.of("").toAbsolutePath();
        final Instant now = Instant.now();
        ScriptFiles.check(spec, submitDir, Environment.process());
        final Path script = new SbatchRenderer(r.version()).renderTo(spec, r.jobDir(), submitDir, now);
        if (r.dryRun()) {
            out.println("script: " + script);
            out.println(Submitter.display(Submitter.argv(script, r.sbatchArgs())));
            return ExitCode.OK;
        }
        final SlurmCli slurm = new SlurmCli(ProcessRunner.fromSystem(err::println));
        final Submitter.Submission sub = new Submitter(slurm).submit(script, r.sbatchArgs(), submitDir);
        final String cluster = sub.cluster() != null ? sub.cluster() : spec.cluster().name();
        final Path outputDir = submitDir.resolve(spec.job().outputDir()).normalize();
        final Manifest manifest = new Manifest(sub.jobId(), cluster, r.specFile(), script, List.copyOf(r.sbatchArgs()),
                now, outputDir.toString(), null, null);
        out.println("submitted job " + sub.jobId() + " on " + cluster + "; manifest "
                + manifest.write(script.getParent()));
        out.flush();
        if (!r.await()) {
            return ExitCode.OK;
        }
        final JobStatus end = new JobFollower(slurm, JobFollower.Polling.gentle(r.waitLimit()), line -> {
            out.println(line);
            out.flush();
        }).follow(sub.jobId());
        manifest.withEnd(end, Instant.now()).write(script.getParent());
        final int status = end.signal() == 0 ? end.exitStatus() : -1;
        if (status == ExitCode.FAILED.code() || status == ExitCode.INCONCLUSIVE.code()) {
            out.println("job " + end.jobId() + ": exit code " + status + " is how a diagnosing job says it "
                    + (status == ExitCode.FAILED.code() ? "named a suspect" : "could not tell")
                    + "; Slurm calls that FAILED. The verdict:");
        }
        return verdict(outputDir, now.minusSeconds(2), end, out);
    }

    /** Prints the newest verdict written since {@code since}; its exit code. */
    static ExitCode verdict(final Path dir, final Instant since, final JobStatus end, final PrintWriter out) {
        final Path json = newest(dir, since);
        if (json == null) {
            throw CctkException.failed(end.describe() + " without a verdict: no diagnose_*.json appeared in " + dir
                    + " since the job was submitted. The job's log (slurm-" + end.jobId() + ".out beside the script)"
                    + " names what stopped it.");
        }
        try {
            final Object doc = Json.parse(Files.readString(json));
            final Map<?, ?> m = doc instanceof Map<?, ?> map ? map : Map.of();
            final Object files = m.get("files");
            final Object text = files instanceof Map<?, ?> f ? f.get("text") : null;
            if (text instanceof String t && Files.isRegularFile(dir.resolve(t))) {
                for (final String line : Files.readAllLines(dir.resolve(t))) {
                    out.println(Printable.of(line));
                }
            }
            final String stem = json.getFileName().toString().replaceFirst("\\.json$", "");
            final Path page = json.resolveSibling(stem).resolve("diagnosis.html");
            out.println("cctk diagnose: verdict in " + json);
            if (Files.isRegularFile(page)) {
                out.println("cctk diagnose: page " + page);
            }
            out.flush();
            return "SUSPECT".equals(m.get("status")) ? ExitCode.FAILED
                    : "INCONCLUSIVE".equals(m.get("status")) ? ExitCode.INCONCLUSIVE
                    : end.state().success() ? ExitCode.OK : ExitCode.FAILED;
        } catch (final IOException | IllegalArgumentException e) {
            throw CctkException.environment("cannot read the diagnosis verdict " + json + ": " + e.getMessage());
        }
    }

    private static Path newest(final Path dir, final Instant since) {
        if (!Files.isDirectory(dir)) {
            return null;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().matches("diagnose_[0-9-]+\\.json"))
                    .filter(p -> modified(p).isAfter(since))
                    .max((a, b) -> modified(a).compareTo(modified(b))).orElse(null);
        } catch (final IOException e) {
            return null;
        }
    }

    private static Instant modified(final Path p) {
        try {
            return Files.getLastModifiedTime(p).toInstant();
        } catch (final IOException e) {
            return Instant.EPOCH;
        }
    }
}
