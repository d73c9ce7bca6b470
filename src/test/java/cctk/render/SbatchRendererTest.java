package cctk.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.spec.Cluster;
import cctk.spec.Job;
import cctk.spec.JobSpec;
import cctk.spec.Resources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class SbatchRendererTest {

    static final Instant WHEN = Instant.parse("2025-01-02T03:04:05Z");

    @TempDir
    Path tmp;

    private final SbatchRenderer renderer = new SbatchRenderer("test", s -> "frozen: " + s.job().name() + "\n");

    private static JobSpec withCluster(final UnaryOperator<Cluster> change) {
        final JobSpec s = JobSpecs.specFor("leonardo-2x4");
        return new JobSpec(s.source(), s.job(), change.apply(s.cluster()), s.resources(), s.ncclEnv(), s.env(),
                s.benchmark(), List.of());
    }

    private static Cluster partition(final Cluster c, final String partition) {
        return new Cluster(c.name(), partition, c.account(), c.qos(), c.constraint(), c.reservation(),
                c.sbatchExtra(), c.modules(), c.envScript(), c.java(), c.jar());
    }

    private void assertUsage(final JobSpec spec, final String... messageParts) {
        assertThatThrownBy(() -> renderer.render(spec, Path.of("jobs/x"), tmp, WHEN))
                .isInstanceOf(CctkException.class).hasMessageContainingAll(messageParts)
                .extracting(e -> ((CctkException) e).exitCode()).isEqualTo(ExitCode.USAGE);
    }

    @Test
    void theTimeLimitWarningIsATenthOfTheLimitBetween10And120Seconds() {
        assertThat(SbatchDirectives.warningSeconds("00:01:00")).isEqualTo(10);
        assertThat(SbatchDirectives.warningSeconds("00:10:00")).isEqualTo(60);
        assertThat(SbatchDirectives.warningSeconds("02:00:00")).isEqualTo(120);
        assertThat(SbatchDirectives.warningSeconds("1-00:00:00")).isEqualTo(120);
    }

    @Test
    void newlineInADirectiveValueIsRejectedNamingTheKey() {
        assertUsage(withCluster(c -> partition(c, "debug\n#SBATCH --wrap=evil")), "'cluster.partition'", "U+000A");
    }

    @Test
    void backslashInADirectiveValueIsRejected() {
        assertUsage(withCluster(c -> partition(c, "a\\b")), "'cluster.partition'", "backslash");
    }

    @Test
    void controlCharactersInSbatchExtraAndNicsAreRejected() {
        assertUsage(withCluster(c -> new Cluster(c.name(), c.partition(), c.account(), c.qos(), c.constraint(),
                c.reservation(), List.of("--exclusive\r"), c.modules(), c.envScript(), c.java(), c.jar())),
                "'cluster.sbatch_extra'");
        final JobSpec s = JobSpecs.specFor("cpu-2node-2nic");
        final Resources r = s.resources();
        assertUsage(new JobSpec(s.source(), s.job(), s.cluster(), new Resources(r.nodes(), r.tasksPerNode(),
                r.gpusPerNode(), r.cpusPerTask(), r.gpuBind(), r.distribution(), List.of("eth0\n#SBATCH -A x")),
                s.ncclEnv(), s.env(), s.benchmark(), List.of()), "'resources.nics'");
    }

    @Test
    void newlinesInEnvValuesAreFineButNulAndBadNamesAreNot() {
        final JobSpec s = JobSpecs.specFor("local");
        final RenderedJob ok = renderer.render(new JobSpec(s.source(), s.job(), s.cluster(), s.resources(),
                Map.of(), Map.of("MULTI", "a\nb"), s.benchmark(), List.of()), Path.of("jobs/x"), tmp, WHEN);
        assertThat(ok.script()).contains("export MULTI='a\nb'");
        assertUsage(new JobSpec(s.source(), s.job(), s.cluster(), s.resources(), Map.of(),
                Map.of("X", "a\0b"), s.benchmark(), List.of()), "'env.X'", "NUL");
        assertUsage(new JobSpec(s.source(), s.job(), s.cluster(), s.resources(), Map.of(),
                Map.of("BAD NAME;rm", "1"), s.benchmark(), List.of()), "'env.BAD NAME;rm'", "variable name");
    }

    @Test
    void worldSizesOutsideTheAllocationAreRejected() {
        final JobSpec s = JobSpecs.specFor("local");
        assertUsage(new JobSpec(s.source(), s.job(), s.cluster(), s.resources(), s.ncclEnv(), s.env(),
                JobSpecs.benchmark(List.of("tcp"), List.of(2, 5)), List.of()), "'benchmark.tasks'", "5", "between 1 and 4");
    }

    @Test
    void smallerWorldSizesUseTheFewestNodesWithTasksSpreadEvenly() {
        final Resources r = new Resources(4, 4, 4, 8, "none", "block", List.of());
        assertThat(SrunSteps.Placement.of(1, r)).isEqualTo(new SrunSteps.Placement(1, 1, 1));
        assertThat(SrunSteps.Placement.of(4, r)).isEqualTo(new SrunSteps.Placement(4, 1, 4));
        assertThat(SrunSteps.Placement.of(6, r)).isEqualTo(new SrunSteps.Placement(6, 2, 3));
        assertThat(SrunSteps.Placement.of(9, r)).isEqualTo(new SrunSteps.Placement(9, 3, 3));
        assertThat(SrunSteps.Placement.of(16, r)).isEqualTo(new SrunSteps.Placement(16, 4, 4));
    }

    @Test
    void optionalDirectivesAppearOnlyWhenGiven() {
        final String local = renderer.render(JobSpecs.specFor("local"), Path.of("j"), tmp, WHEN).script();
        assertThat(local).doesNotContain("--partition", "--account", "--qos", "--constraint", "--reservation",
                "--gpus-per-node", "--gpu-bind", "module load", "source ", "export NCCL");
        final String perl = renderer.render(JobSpecs.specFor("perlmutter-1x4"), Path.of("j"), tmp, WHEN).script();
        assertThat(perl).contains("#SBATCH --account=m1234_g", "#SBATCH --constraint=gpu", "#SBATCH --qos=regular",
                "#SBATCH --gpus-per-node=4", "--gpus-per-node=4 --gpu-bind=none", "export NCCL_NET='AWS Libfabric'");
    }

    @Test
    void writeCreatesTheJobDirectoryWithAnExecutableScriptAndTheFrozenSpec() throws Exception {
        final Path script = renderer.renderTo(JobSpecs.specFor("local"), null, tmp, WHEN);
        final Path dir = SbatchRenderer.defaultJobDir(tmp, "local", WHEN, java.time.ZoneId.systemDefault());
        assertThat(script).isEqualTo(dir.resolve("job.sbatch"));
        assertThat(Files.getPosixFilePermissions(script)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        assertThat(Files.getPosixFilePermissions(dir)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        assertThat(Files.getPosixFilePermissions(dir.resolve("spec.yaml")))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.readString(dir.resolve("spec.yaml"))).isEqualTo("frozen: local\n");
        assertThat(Files.readString(script)).contains("--spec " + dir.resolve("spec.yaml"));
    }

    @Test
    void defaultJobDirIsJobsNameTimestampAndRefusesNamesThatAreNotOneDirectory() {
        assertThat(SbatchRenderer.defaultJobDir(Path.of("/b"), "n", WHEN, ZoneOffset.UTC))
                .isEqualTo(Path.of("/b/jobs/n/20250102-030405"));
        for (final String bad : List.of("", ".", "..", "a/b", "../x")) {
            assertThatThrownBy(() -> SbatchRenderer.defaultJobDir(Path.of("/b"), bad, WHEN, ZoneOffset.UTC))
                    .isInstanceOf(CctkException.class).hasMessageContaining("-o DIR");
        }
    }

    @Test
    void aPercentInTheJobDirectoryIsRejectedBecauseSbatchExpandsIt() {
        assertThatThrownBy(() -> renderer.render(JobSpecs.specFor("local"), Path.of("jobs/100%"), tmp, WHEN))
                .isInstanceOf(CctkException.class).hasMessageContaining("'%'");
    }

    @Test
    void relativePathsBecomeAbsoluteAgainstTheBaseAndHomeIsExpanded() {
        final JobSpec s = JobSpecs.specFor("local");
        final JobSpec spec = new JobSpec(s.source(), new Job("n", "../out", "1"),
                new Cluster("c", null, null, null, null, null, null, null, "~/env.sh", "/opt/java", "a/../cctk.jar"),
                s.resources(), null, null, s.benchmark(), List.of());
        final JobSpec abs = SpecPaths.absolute(spec, Path.of("/base/dir"));
        assertThat(abs.job().outputDir()).isEqualTo("/base/out");
        assertThat(abs.cluster().jar()).isEqualTo("/base/dir/cctk.jar");
        assertThat(abs.cluster().java()).isEqualTo("/opt/java");
        assertThat(abs.cluster().envScript()).isEqualTo(System.getProperty("user.home") + "/env.sh");
        assertThat(abs.source()).isEqualTo(Path.of("/base/dir/configs/local.yaml"));
        assertThat(SpecPaths.absolute(JobSpecs.specFor("local"), Path.of("/b")).cluster().java()).isEqualTo("java");
        final String script = renderer.render(spec, Path.of("j"), tmp, WHEN).script();
        assertThat(script).doesNotContainPattern("export (?!CCTK_SECRET)");
    }
}
