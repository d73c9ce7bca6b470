package cctk.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** One place turns a spec into its ranks' environment: nccl_env, env, then nccl.debug's log. */
@Timeout(30)
class JobEnvironmentTest {

    @TempDir
    Path dir;

    private JobSpec spec(final String extra) throws Exception {
        final Path f = dir.resolve("s.yaml");
        Files.writeString(f, "job: {name: t, output_dir: " + dir.resolve("out") + "}\n"
            + "resources: {nodes: 1, tasks_per_node: 2, gpus_per_node: 2}\n"
            + "nccl_env: {NCCL_ALGO: Ring, NCCL_PROTO: Simple}\n"
            + "env: {FI_PROVIDER: cxi, SITE_MARK: \"two words\"}\n" + extra);
        return SpecParser.parse(f);
    }

    @Test
    void theSpecsVariablesInOrderThenNcclDebugOnlyWhenNcclRuns() throws Exception {
        final JobSpec tcp = spec("benchmark: {backends: [tcp], tasks: [2]}\nnccl: {debug: true}\n");
        assertThat(JobEnvironment.of(tcp)).extracting(v -> v.name() + "=" + v.value() + " from " + v.key())
            .containsExactly("NCCL_ALGO=Ring from nccl_env.NCCL_ALGO", "NCCL_PROTO=Simple from nccl_env.NCCL_PROTO",
                "FI_PROVIDER=cxi from env.FI_PROVIDER", "SITE_MARK=two words from env.SITE_MARK");
        final JobSpec nccl = spec("benchmark: {backends: [nccl], tasks: [2]}\nnccl: {debug: true}\n");
        assertThat(JobEnvironment.of(nccl)).extracting(JobEnvironment.Variable::name).endsWith("NCCL_DEBUG",
            "NCCL_DEBUG_FILE");
        assertThat(JobEnvironment.ncclDebug(nccl).get(1).value()).isEqualTo(dir.resolve("out") + "/nccl-debug/%h.%p.log");
    }

    @Test
    void aJobThatRunsGlooGetsGlibcsSettingsForItsTemporariesFirstUnlessItsEnvSetsTheAllocator() throws Exception {
        final JobSpec both = spec("benchmark: {backends: [tcp, gloo], tasks: [2]}\n");
        assertThat(JobEnvironment.of(both)).extracting(v -> v.name() + "=" + v.value() + " from " + v.key())
            .startsWith("MALLOC_MMAP_THRESHOLD_=33554432 from benchmark.backends",
                "MALLOC_TOP_PAD_=67108864 from benchmark.backends", "NCCL_ALGO=Ring from nccl_env.NCCL_ALGO")
            .hasSize(6);
        assertThat(JobEnvironment.exported(both)).as("what the sbatch script exports as the spec's").hasSize(4);
        assertThat(JobEnvironment.glooAllocator(spec("benchmark: {backends: [tcp, nccl], tasks: [2]}\n"))).isEmpty();
        for (final String own : new String[] {"GLIBC_TUNABLES: glibc.malloc.hugetlb=1", "MALLOC_ARENA_MAX: 2",
            "MALLOC_TOP_PAD_: 0"}) {
            final Path f = dir.resolve("own.yaml");
            Files.writeString(f, "job: {name: t, output_dir: " + dir.resolve("out") + "}\n"
                + "resources: {nodes: 1, tasks_per_node: 2}\nenv: {" + own + "}\n"
                + "benchmark: {backends: [gloo], tasks: [2]}\n");
            final JobSpec s = SpecParser.parse(f);
            assertThat(JobEnvironment.glooAllocator(s)).as(own).isEmpty();
            assertThat(JobEnvironment.of(s)).as(own).extracting(JobEnvironment.Variable::key)
                .containsExactly("env." + own.substring(0, own.indexOf(':')));
        }
    }

    @Test
    void aNameThatIsNoVariableIsRefusedByItsKey() throws Exception {
        final JobSpec s = spec("");
        final JobSpec bad = new JobSpec(s.source(), s.job(), s.cluster(), s.resources(), s.ncclEnv(),
            java.util.Map.of("1X", "v"), s.benchmark(), s.references());
        assertThatThrownBy(() -> JobEnvironment.of(bad)).isInstanceOf(CctkException.class)
            .hasMessageContaining("'env.1X' is not a valid environment variable name");
    }
}
