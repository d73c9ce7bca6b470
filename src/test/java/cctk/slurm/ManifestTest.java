package cctk.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(10)
class ManifestTest {

    @TempDir
    Path tmp;

    @Test
    void writesThenRecordsTheEnd() throws Exception {
        final Manifest m = new Manifest("12", "cctk-local", Path.of("configs/ci.yaml"),
                Path.of("jobs/ci/job.sbatch"), List.of("--qos=debug"), Instant.parse("2026-11-22T10:00:00Z"),
                "results/ci", null, null);
        final Path jobDir = tmp.resolve("jobs/ci");
        final Path file = m.write(jobDir);
        assertThat(file).isEqualTo(jobDir.resolve("manifest.json"));
        final String first = Files.readString(file);
        assertThat(first).contains("\"job_id\": \"12\"", "\"cluster\": \"cctk-local\"",
                "\"spec\": \"configs/ci.yaml\"", "\"script\": \"jobs/ci/job.sbatch\"", "\"--qos=debug\"",
                "\"submitted\": \"2026-11-22T10:00:00Z\"", "\"output_dir\": \"results/ci\"", "\"state\": null");
        m.withEnd(new JobStatus("12", JobState.FAILED, "3:0", "NonZeroExitCode", "scontrol"),
                Instant.parse("2026-11-22T10:05:00Z")).write(jobDir);
        final String second = Files.readString(file);
        assertThat(second).contains("\"state\": \"FAILED\"", "\"exit_code\": \"3:0\"",
                "\"ended\": \"2026-11-22T10:05:00Z\"", "\"job_id\": \"12\"");
        try (var files = Files.list(jobDir)) {
            assertThat(files).containsExactly(file); // no temporary files left behind
        }
    }
}
