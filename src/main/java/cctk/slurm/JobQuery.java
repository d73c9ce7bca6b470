package cctk.slurm;

import cctk.Printable;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Asks Slurm for one job's state: squeue while the job is queued or running, then scontrol (which
 * keeps a finished job for MinJobAge seconds and has its exit code), then sacct when accounting
 * exists. The parse methods read each tool's output and are what the unit tests exercise.
 */
public final class JobQuery {

    private static final Pattern JOB_STATE = Pattern.compile("(?:^|\\s)JobState=(\\S+)");
    private static final Pattern EXIT_CODE = Pattern.compile("(?:^|\\s)ExitCode=(\\d+:\\d+)");
    private static final Pattern REASON = Pattern.compile("(?:^|\\s)Reason=(\\S+)");

    private final SlurmCli slurm;

    public JobQuery(final SlurmCli slurm) {
        this.slurm = slurm;
    }

    /** The job's current status from the first tool that knows it; empty when none does. */
    public Optional<JobStatus> query(final String jobId) {
        final ProcessRunner.Result sq = slurm.call("squeue", "-h", "-j", jobId, "-o", "%T");
        if (sq.ok()) {
            final Optional<JobStatus> s = parseSqueue(jobId, sq.stdout());
            if (s.isPresent()) {
                return s;
            }
        }
        final ProcessRunner.Result sc = slurm.call("scontrol", "show", "job", jobId);
        if (sc.ok()) {
            final Optional<JobStatus> s = parseScontrol(jobId, sc.stdout());
            if (s.isPresent()) {
                return s;
            }
        }
        if (slurm.installed("sacct")) {
            final ProcessRunner.Result sa = slurm.call("sacct", "-j", jobId, "-X", "-n", "-P", "-o",
                    "JobID,State,ExitCode");
            if (sa.ok()) {
                return parseSacct(jobId, sa.stdout());
            }
        }
        return Optional.empty();
    }

    /** {@code squeue -h -j ID -o %T}: one state word, or nothing once the job has left the queue. */
    static Optional<JobStatus> parseSqueue(final String jobId, final String stdout) {
        final String line = stdout.strip().lines().findFirst().orElse("").strip();
        if (line.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new JobStatus(jobId, JobState.parse(line), null, unparsed(line), "squeue"));
    }

    /** {@code scontrol show job ID}: the JobState=, ExitCode= and Reason= fields. */
    static Optional<JobStatus> parseScontrol(final String jobId, final String stdout) {
        final Matcher state = JOB_STATE.matcher(stdout);
        if (!state.find()) {
            return Optional.empty();
        }
        final Matcher exit = EXIT_CODE.matcher(stdout);
        final Matcher reason = REASON.matcher(stdout);
        String why = reason.find() ? reason.group(1) : null;
        if ("None".equals(why)) {
            why = null;
        }
        final JobState parsed = JobState.parse(state.group(1));
        return Optional.of(new JobStatus(jobId, parsed, exit.find() ? exit.group(1) : null,
                parsed == JobState.UNKNOWN ? unparsed(state.group(1)) : why, "scontrol"));
    }

    /** {@code sacct -j ID -X -n -P -o JobID,State,ExitCode}: "12|CANCELLED by 0|0:15", one line per job. */
    static Optional<JobStatus> parseSacct(final String jobId, final String stdout) {
        for (final String line : stdout.strip().split("\n")) {
            final String[] f = line.strip().split("\\|", -1);
            if (f.length >= 3 && f[0].equals(jobId)) {
                return Optional.of(new JobStatus(jobId, JobState.parse(f[1]),
                        f[2].isBlank() ? null : f[2].strip(), unparsed(f[1]), "sacct"));
            }
        }
        return Optional.empty();
    }

    /** For a state cctk cannot read: what Slurm said, quoted, control characters shown as '?', at most 80. */
    static String unparsed(final String text) {
        if (JobState.parse(text) != JobState.UNKNOWN) {
            return null;
        }
        final String t = text.strip();
        return "Slurm said '" + Printable.of(t.length() > 80 ? t.substring(0, 80) + "..." : t) + "'";
    }
}
