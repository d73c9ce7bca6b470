package cctk.cli;

import cctk.CctkException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The options of the commands that submit a spec's job to Slurm ({@code cctk submit}, {@code cctk diagnose}): the
 * spec, extra sbatch arguments, a dry run, the job directory and how long to follow the job. A picocli mixin.
 */
final class JobOptions {

    @Parameters(index = "0", paramLabel = "SPEC", description = "The job spec (configs/*.yaml).")
    Path specFile;

    @Parameters(index = "1..*", paramLabel = "SBATCH_ARG",
            description = "After '--': extra sbatch arguments, passed before the script (they win over #SBATCH).")
    List<String> sbatchArgs = new ArrayList<>();

    @Option(names = "--dry-run", description = "Render and print the sbatch command; submit nothing.")
    boolean dryRun;

    @Option(names = {"-o", "--job-dir"}, paramLabel = "DIR",
            description = "Where the script and manifest.json go (default: jobs/<job name>/<timestamp>).")
    Path jobDir;

    @Option(names = "--wait-limit", paramLabel = "SECONDS", defaultValue = "86400",
            description = "Give up following after this long (default: ${DEFAULT-VALUE}); the job keeps running.")
    long waitLimit;

    /** The --wait-limit as a duration; refuses zero, a negative or more than a year (usage error). */
    Duration waitLimit() {
        if (waitLimit < 1 || waitLimit > 366L * 86_400) {
            throw CctkException.usage("--wait-limit: expected 1 to " + 366L * 86_400 + " seconds, found "
                    + waitLimit + ".");
        }
        return Duration.ofSeconds(waitLimit);
    }
}
