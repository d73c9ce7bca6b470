package cctk.spec;

/**
 * @param name      job name; also the directory under jobs/
 * @param outputDir where result files go (relative paths are relative to the submit directory)
 * @param timeLimit Slurm time limit as written, e.g. {@code 00:30:00}
 */
public record Job(String name, String outputDir, String timeLimit) {

    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z0-9._-]{1,64}");

    /**
     * Whether {@code name} may be a job name: 1-64 letters, digits, '.', '_' and '-', and not '.' or '..' (it
     * names a directory under jobs/). The one rule that validate, render and submit apply.
     */
    public static boolean validName(final String name) {
        return name != null && NAME.matcher(name).matches() && !name.equals(".") && !name.equals("..");
    }

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
