package cctk.spec;

/**
 * @param name      job name; also the directory under jobs/
 * @param outputDir where result files go (relative paths are relative to the submit directory)
 * @param timeLimit Slurm time limit as written, e.g. {@code 00:30:00}
 */
public record Job(String name, String outputDir, String timeLimit) {

    /** The time limit in seconds, 0 when there is none. */
    public long timeLimitSeconds() {
        return timeLimit == null || timeLimit.isBlank() ? 0 : seconds(timeLimit);
    }

    /**
     * How long before the time limit the rendered script asks Slurm for SIGUSR1 ({@code #SBATCH --signal=USR1@N}):
     * a tenth of the limit, 10 s to 120 s.
     */
    public static int warningSeconds(final String timeLimit) {
        return (int) Math.max(10, Math.min(120, seconds(timeLimit) / 10));
    }

    /** Seconds of a time limit written HH:MM:SS, MM:SS, D-HH:MM:SS (as the spec parser accepts them). */
    public static long seconds(final String timeLimit) {
        final String[] dayRest = timeLimit.split("-", 2);
        final String clock = dayRest.length == 2 ? dayRest[1] : dayRest[0];
        long seconds = dayRest.length == 2 ? Long.parseLong(dayRest[0].trim()) * 86_400 : 0;
        final String[] parts = clock.split(":");
        long unit = 3600;
        for (final String p : parts) {
            seconds += Long.parseLong(p.trim()) * unit;
            unit /= 60;
        }
        return seconds;
    }
}
