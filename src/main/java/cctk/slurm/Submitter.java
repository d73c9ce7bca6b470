package cctk.slurm;

import cctk.CctkException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Submits a batch script with {@code sbatch --parsable} and returns the job id Slurm gave it. */
public final class Submitter {

    /** sbatch --parsable prints "ID" or "ID;CLUSTER" (federations and multi-cluster setups). */
    private static final Pattern PARSABLE = Pattern.compile("^([0-9]+)(;(.+))?$");

    /** A job Slurm accepted. @param cluster the cluster sbatch named, or null when it named none */
    public record Submission(String jobId, String cluster) {
    }

    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_./=:,@%+-]+");

    private final SlurmCli slurm;

    public Submitter(final SlurmCli slurm) {
        this.slurm = slurm;
    }

    /** The argv that submits {@code script}: sbatch's own options, then the user's, then the script. */
    public static List<String> argv(final Path script, final List<String> extraArgs) {
        final List<String> argv = new ArrayList<>();
        argv.add("sbatch");
        argv.add("--parsable");
        argv.addAll(extraArgs);
        argv.add(script.toString());
        return argv;
    }

    /**
     * Submits {@code script} from {@code submitDir} (where relative #SBATCH -o paths land).
     * Throws CctkException(ENVIRONMENT) with sbatch's own message when it refuses the job.
     */
    public Submission submit(final Path script, final List<String> extraArgs, final Path submitDir) {
        final List<String> argv = argv(script, extraArgs);
        final ProcessRunner.Result r = slurm.call(submitDir, "sbatch", argv.subList(1, argv.size()));
        if (!r.ok()) {
            final String why = r.stderr().isBlank() ? r.stdout().strip() : r.stderr().strip();
            throw CctkException.environment("sbatch rejected " + script + " (exit " + r.exit() + "): "
                    + why.replace('\n', ' '));
        }
        return parse(r.stdout());
    }

    /** {@code argv} as one line a person can paste into a shell (display only; never executed). */
    public static String display(final List<String> argv) {
        final StringBuilder sb = new StringBuilder();
        for (final String a : argv) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(SAFE.matcher(a).matches() ? a : "'" + a.replace("'", "'\\''") + "'");
        }
        return sb.toString();
    }

    /** The job id in sbatch --parsable's output (its last non-empty line). */
    static Submission parse(final String stdout) {
        final String last = stdout.strip().lines().reduce((a, b) -> b).orElse("").strip();
        final Matcher m = PARSABLE.matcher(last);
        if (!m.matches()) {
            throw CctkException.environment("sbatch accepted the job but printed no job id: '" + stdout.strip()
                    + "' (expected 'ID' or 'ID;CLUSTER' from --parsable)");
        }
        return new Submission(m.group(1), m.group(3));
    }
}
