package cctk.cli;

import cctk.ExitCode;
import cctk.Environment;
import cctk.render.SbatchRenderer;
import cctk.render.ScriptFiles;
import cctk.slurm.JobFollower;
import cctk.slurm.JobStatus;
import cctk.slurm.Manifest;
import cctk.slurm.ProcessRunner;
import cctk.slurm.SlurmCli;
import cctk.slurm.Submitter;
import cctk.spec.JobSpec;
import cctk.spec.SpecParser;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cctk submit}: render a spec, sbatch it, write the manifest and optionally follow the job. */
@Command(name = "submit", mixinStandardHelpOptions = true,
        description = {"Renders SPEC into an sbatch script in the job directory, submits it with sbatch and writes "
            + "manifest.json beside it. With --wait, follows the job to its end.",
            "Exit code with --wait: 0 when the job COMPLETED, 1 when it ended any other way (FAILED, TIMEOUT, "
            + "CANCELLED, OUT_OF_MEMORY, NODE_FAIL, ...), 3 when Slurm could not be reached or refused the job."},
        footer = {"%nExamples:", "  cctk submit configs/ci-slurm.yaml --wait",
            "  cctk submit configs/perlmutter-4gpu.yaml -- --qos=debug --begin=now+1hour"})
final class SubmitCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    JobOptions options;

    @Option(names = "--wait", description = "Follow the job until it ends and exit with its outcome.")
    boolean await;

    @Override
    public Integer call() {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final Duration waitLimit = options.waitLimit();
        final JobSpec job = SpecParser.parse(options.specFile);
        final Path submitDir = Path.of("").toAbsolutePath();
        final Instant now = Instant.now();
        ScriptFiles.check(job, submitDir, Environment.process());
        final Path script = new SbatchRenderer(VersionProvider.version()).renderTo(job, options.jobDir, submitDir,
                now);
        final Path dir = script.getParent();
        if (options.dryRun) {
            out.println("script: " + script);
            out.println(Submitter.display(Submitter.argv(script, options.sbatchArgs)));
            return ExitCode.OK.code();
        }
        final SlurmCli slurm = new SlurmCli(ProcessRunner.fromSystem(err::println));
        final Submitter.Submission sub = new Submitter(slurm).submit(script, options.sbatchArgs, submitDir);
        final String cluster = sub.cluster() != null ? sub.cluster() : job.cluster().name();
        final Manifest manifest = new Manifest(sub.jobId(), cluster, options.specFile, script,
                List.copyOf(options.sbatchArgs),
                now, submitDir.resolve(job.job().outputDir()).normalize().toString(), null, null);
        final Path manifestFile = manifest.write(dir);
        out.println("submitted job " + sub.jobId() + " on " + cluster + "; manifest " + manifestFile);
        out.flush();
        if (!await) {
            return ExitCode.OK.code();
        }
        final JobStatus end = new JobFollower(slurm,
                JobFollower.Polling.gentle(waitLimit),
                line -> {
                    out.println(line);
                    out.flush();
                }).follow(sub.jobId());
        manifest.withEnd(end, Instant.now()).write(dir);
        final cctk.slurm.RunOutcome outcome = cctk.slurm.RunOutcome.of(
                submitDir.resolve(job.job().outputDir()).normalize(), now.minusSeconds(2));
        out.println(end.describe() + "; " + outcome.words());
        return end.state().success() && !outcome.incomplete() ? ExitCode.OK.code() : ExitCode.FAILED.code();
    }

    /**
     * The one call into cctk.render: renders {@code job} into {@code jobDir} and returns the written
     * sbatch script. Written against the planned API
     * {@code RenderedJob render(JobSpec, Path jobDir, Path baseDir, Instant)} plus its write method;
     * replace the body when the renderer lands, e.g. {@code return Renderer.write(Renderer.render(job,
     * jobDir, baseDir, now));}.
     */
}
