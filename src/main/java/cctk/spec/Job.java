package cctk.spec;

/**
 * @param name      job name; also the directory under jobs/
 * @param outputDir where result files go (relative paths are relative to the submit directory)
 * @param timeLimit Slurm time limit as written, e.g. {@code 00:30:00}
 */
public record Job(String name, String outputDir, String timeLimit) {
}
