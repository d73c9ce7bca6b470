package cctk.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.comm.CollectiveType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * The whole one-node path on the real local Slurm (scripts/slurm-local.sh start local) through the built jar:
 * {@code cctk submit configs/ci-slurm.yaml --wait} runs every collective with 4 tcp ranks through
 * sbatch → srun → 4 ranks, and a {@code cctk render}ed script under plain {@code sbatch --wait} gives the same
 * kind of result files with the same rows.
 */
@Tag("slurm")
@Timeout(420)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SubmitPipelineIT {

    private static final String SPEC = "configs/ci-slurm.yaml";
    private static final Duration JOB_LIMIT = Duration.ofSeconds(180);

    /** CSV rows of the cctk-submit run, compared with the plain sbatch run. */
    private static Set<String> submittedRows;

    @BeforeAll
    static void oneNodeCluster() {
        LocalCluster.ensure("local");
    }

    @Test
    @Order(1)
    void submitWaitRunsEveryCollectiveAndWritesResultsWhereTheManifestSays() throws Exception {
        final Path out = LocalCluster.ROOT.resolve("results/ci-slurm");
        final Set<String> before = LocalCluster.files(out);
        final LocalCluster.Submitted s = LocalCluster.submitWait(Map.of(), JOB_LIMIT, SPEC);
        final String line = LocalCluster.finalLine(s.jobId());
        assertThat(s.run().code()).as(s.run().out()).isZero();
        assertThat(s.run().out()).contains("job " + s.jobId() + " COMPLETED, exit code 0:0; results in ");
        assertThat(LocalCluster.field(line, "JobState")).isEqualTo("COMPLETED");
        assertThat(LocalCluster.field(line, "NumTasks")).isEqualTo("4");
        assertThat(s.manifest()).contains("\"state\": \"COMPLETED\"", "\"exit_code\": \"0:0\"",
                "\"job_id\": \"" + s.jobId() + "\"");
        assertThat(s.outputDir()).isEqualTo(out);

        final Set<String> made = LocalCluster.newProfiles(out, before);
        assertThat(made).as("new files in %s", out).hasSize(3)
                .allMatch(f -> f.matches("profile_tcp_world4_[0-9]{8}-[0-9]{6}(-[0-9]+)?\\.(txt|csv|json)"));
        final Path csv = out.resolve(only(made, ".csv"));
        submittedRows = LocalCluster.csvKeys(csv);
        final String csvText = Files.readString(csv);
        for (final CollectiveType t : CollectiveType.values()) {
            assertThat(csvText).as("a row of %s", t).containsPattern("(?m)^tcp,4," + t.specName() + ",");
        }
        for (final String size : new String[] {"1024", "65536", "262144"}) {
            assertThat(csvText).as("all_reduce at %s bytes", size).contains(",all_reduce,float32,sum,," + size + ",");
        }
        final String profile = Files.readString(out.resolve(only(made, ".txt")));
        assertThat(profile).contains("| job: " + s.jobId(), "Backend: tcp", "World Size=4",
                "# Out of bounds values : 0 OK").doesNotContain("Incomplete");
        assertThat(Files.readString(out.resolve(only(made, ".json")))).contains("\"job_id\": \"" + s.jobId() + "\"");
        assertThat(Files.readString(s.jobOutput())).contains("rank 0/4 local 0 node 0", "via slurm",
                "cctk: all steps ok");
    }

    @Test
    @Order(2)
    void aRenderedScriptUnderPlainSbatchWaitGivesTheSameFiles() throws Exception {
        final LocalCluster.Run render = LocalCluster.cctk(Map.of(), Duration.ofSeconds(60), "render", SPEC);
        assertThat(render.code()).as(render.out()).isZero();
        final Matcher m = Pattern.compile("(?m)^(/\\S+/job\\.sbatch)$").matcher(render.out());
        assertThat(m.find()).as(render.out()).isTrue();
        final Path script = Path.of(m.group(1));
        final Path out = LocalCluster.ROOT.resolve("results/ci-slurm");
        assertThat(Files.readString(script)).contains("mkdir -p -- " + out);
        final Set<String> before = LocalCluster.files(out);

        final LocalCluster.Run sbatch = LocalCluster.run(JOB_LIMIT, "sbatch", "--wait", script.toString());
        final Matcher id = Pattern.compile("Submitted batch job ([0-9]+)").matcher(sbatch.out());
        assertThat(id.find()).as(sbatch.out()).isTrue();
        final String line = LocalCluster.finalLine(id.group(1));
        assertThat(sbatch.code()).as(sbatch.out()).isZero();
        assertThat(LocalCluster.field(line, "JobState")).isEqualTo("COMPLETED");
        assertThat(Files.readString(script.resolveSibling("slurm-" + id.group(1) + ".out")))
                .contains("cctk: all steps ok; results in " + out);

        final Set<String> made = LocalCluster.newProfiles(out, before);
        assertThat(made).hasSize(3);
        final Set<String> rows = LocalCluster.csvKeys(out.resolve(only(made, ".csv")));
        assertThat(rows).hasSizeGreaterThan(CollectiveType.values().length);
        if (submittedRows != null) {
            assertThat(rows).isEqualTo(submittedRows);
        }
    }

    private static String only(final Set<String> names, final String suffix) {
        return names.stream().filter(n -> n.endsWith(suffix)).findFirst()
                .orElseThrow(() -> new AssertionError("no *" + suffix + " among " + names));
    }
}
