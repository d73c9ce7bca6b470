package cctk.slurm;

import cctk.CctkException;
import cctk.Json;
import cctk.OwnerFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code manifest.json} in a job directory: which spec and script were submitted, when, as which job
 * on which cluster, where the results go and, once known, how the job ended. Rewritten whole
 * (through a temporary file) on every update so readers never see half a file.
 *
 * @param jobId     Slurm's job id
 * @param cluster   the cluster sbatch named, else the spec's cluster profile name
 * @param spec      the spec file
 * @param script    the rendered sbatch script
 * @param sbatchArgs extra sbatch arguments given on the command line
 * @param submitted when sbatch accepted the job
 * @param outputDir where the job writes its results (the spec's job.output_dir)
 * @param end       the terminal status, or null while the job has not been followed to its end
 * @param ended     when the end was observed, or null
 */
public record Manifest(String jobId, String cluster, Path spec, Path script, List<String> sbatchArgs,
                       Instant submitted, String outputDir, JobStatus end, Instant ended) {

    /** The file name inside the job directory. */
    public static final String FILE = "manifest.json";

    /** This manifest with the job's end recorded. */
    public Manifest withEnd(final JobStatus status, final Instant when) {
        return new Manifest(jobId, cluster, spec, script, sbatchArgs, submitted, outputDir, status, when);
    }

    /** The JSON object, keys in a fixed order. */
    public Map<String, Object> toMap() {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("job_id", jobId);
        m.put("cluster", cluster);
        m.put("spec", spec == null ? null : spec.toString());
        m.put("script", script == null ? null : script.toString());
        m.put("sbatch_args", sbatchArgs);
        m.put("submitted", submitted.toString());
        m.put("output_dir", outputDir);
        m.put("state", end == null ? null : end.state().name());
        m.put("exit_code", end == null ? null : end.exitCode());
        m.put("ended", ended == null ? null : ended.toString());
        return m;
    }

    /** Writes {@code jobDir/manifest.json} and returns its path. */
    public Path write(final Path jobDir) {
        final Path file = jobDir.resolve(FILE);
        try {
            OwnerFiles.directory(jobDir);
            OwnerFiles.string(file, Json.write(toMap()) + "\n");
        } catch (IOException e) {
            throw CctkException.environment("cannot write " + file + ": " + e.getMessage(), e);
        }
        return file;
    }
}
