package cctk.cli;

import cctk.Environment;
import cctk.render.SbatchRenderer;
import cctk.render.ScriptFiles;
import cctk.spec.JobSpec;
import cctk.spec.SpecParser;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cctk render SPEC [-o DIR]}: writes DIR/job.sbatch and DIR/spec.yaml and prints the script path. */
@Command(name = "render", mixinStandardHelpOptions = true,
        description = {"Renders a job spec into an sbatch script (job.sbatch) and the frozen spec its ranks read "
            + "(spec.yaml), and prints the script's path. Relative paths in the spec are taken against the "
            + "current directory and written absolute, so the script can be submitted from anywhere.",
            "Submit it by hand with 'sbatch DIR/job.sbatch', or use 'cctk submit'."})
final class RenderCommand implements Callable<Integer> {

    @Spec
    CommandSpec commandSpec;

    @Parameters(index = "0", paramLabel = "SPEC", description = "The job spec, e.g. configs/perlmutter-4gpu.yaml.")
    Path specFile;

    @Option(names = {"-o", "--output"}, paramLabel = "DIR",
            description = "Job directory to write into (default: jobs/<job name>/<yyyyMMdd-HHmmss>/).")
    Path jobDir;

    @Override
    public Integer call() {
        final JobSpec spec = SpecParser.parse(specFile);
        final Path base = Path.of("").toAbsolutePath();
        ScriptFiles.check(spec, base, Environment.process());
        final Path script = new SbatchRenderer(VersionProvider.version()).renderTo(spec, jobDir, base, Instant.now());
        commandSpec.commandLine().getOut().println(script);
        return 0;
    }
}
