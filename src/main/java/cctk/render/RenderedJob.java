package cctk.render;

import cctk.spec.JobSpec;
import java.nio.file.Path;

/**
 * A rendered job, not yet on disk.
 *
 * @param script     the whole sbatch script text
 * @param jobDir     the absolute job directory the files belong in
 * @param scriptPath {@code jobDir/job.sbatch}
 * @param specPath   {@code jobDir/spec.yaml}: the frozen spec every rank reads
 * @param frozenSpec the spec with absolute paths, as it is to be written to {@code specPath}
 */
public record RenderedJob(String script, Path jobDir, Path scriptPath, Path specPath, JobSpec frozenSpec) {
}
