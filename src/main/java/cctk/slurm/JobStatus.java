package cctk.slurm;

/**
 * What Slurm said about a job at one moment.
 *
 * @param jobId    the job id
 * @param state    its state
 * @param exitCode Slurm's {@code code:signal}, e.g. {@code 3:0}; null while running or when squeue answered
 * @param reason   scontrol's Reason= (null when unknown or None)
 * @param source   the tool that answered: squeue, scontrol or sacct
 */
public record JobStatus(String jobId, JobState state, String exitCode, String reason, String source) {

    /** The exit status of the batch script (the part before ':'), or -1 when unknown. */
    public int exitStatus() {
        return part(0);
    }

    /** The signal that ended the script (after ':'), 0 for none, or -1 when unknown. */
    public int signal() {
        return part(1);
    }

    private int part(final int index) {
        if (exitCode == null) {
            return -1;
        }
        final String[] parts = exitCode.split(":");
        try {
            return parts.length > index ? Integer.parseInt(parts[index].trim()) : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** One line for people, e.g. {@code job 12 FAILED, exit code 3:0 (NonZeroExitCode)}. */
    public String describe() {
        final StringBuilder sb = new StringBuilder("job ").append(jobId).append(' ').append(state);
        if (exitCode != null) {
            sb.append(", exit code ").append(exitCode);
        }
        if (reason != null) {
            sb.append(" (").append(reason).append(')');
        }
        return sb.toString();
    }
}
