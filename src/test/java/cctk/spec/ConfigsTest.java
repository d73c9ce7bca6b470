package cctk.spec;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.comm.CollectiveType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The shipped configs parse, and every one survives SpecWriter and back unchanged. */
@Timeout(30)
class ConfigsTest {

    @TempDir
    Path dir;

    static Stream<Path> configs() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("configs"))) {
            final List<Path> list = files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
            assertThat(list).hasSizeGreaterThanOrEqualTo(5);
            return list.stream();
        }
    }

    @ParameterizedTest
    @MethodSource("configs")
    void roundTripsThroughTheWriter(final Path config) throws IOException {
        final JobSpec spec = SpecParser.parse(config);
        final String yaml = SpecWriter.toYaml(spec);
        assertThat(yaml).doesNotContain("extends");
        final Path frozen = SpecFiles.write(dir, "frozen/" + config.getFileName(), yaml);
        final JobSpec again = SpecParser.parse(frozen);
        assertThat(again).isEqualTo(new JobSpec(frozen, spec.job(), spec.cluster(), spec.resources(),
                spec.ncclEnv(), spec.env(), spec.benchmark(), spec.references(), spec.nccl(), spec.diagnose()));
        assertThat(SpecWriter.toYaml(again).lines().skip(1)).containsExactlyElementsOf(yaml.lines().skip(1).toList());
    }

    @Test
    void perlmutterGetsItsProfile() {
        final JobSpec s = SpecParser.parse(Path.of("configs/perlmutter-4gpu.yaml"));
        assertThat(s.cluster().name()).isEqualTo("perlmutter");
        assertThat(s.cluster().constraint()).isEqualTo("gpu");
        assertThat(s.resources().nics()).containsExactly("hsn0", "hsn1", "hsn2", "hsn3");
        assertThat(s.ncclEnv()).containsEntry("NCCL_NET_GDR_LEVEL", "PHB").containsEntry("NCCL_CROSS_NIC", "1")
                .doesNotContainKey("NCCL_DEBUG");
        assertThat(s.nccl().debug()).as("nccl.debug exports NCCL_DEBUG=INFO, once").isTrue();
        assertThat(s.env()).containsEntry("FI_CXI_DISABLE_HOST_REGISTER", "1");
        assertThat(s.benchmark().backends()).containsExactly("nccl", "tcp");
        assertThat(s.benchmark().taskCounts()).containsExactly(4);
        assertThat(s.benchmark().timeoutSeconds()).isEqualTo(300);
    }

    @Test
    void localRunsEveryCollectiveOnTwoAndFourTasks() {
        final JobSpec s = SpecParser.parse(Path.of("configs/local.yaml"));
        assertThat(s.benchmark().taskCounts()).containsExactly(2, 4);
        assertThat(s.benchmark().collectives()).containsExactly(CollectiveType.values());
        assertThat(s.benchmark().sizes()).extracting(MessageSize::specText)
                .containsExactly("1KiB", "8KiB", "64KiB", "512KiB", "4MiB");
        assertThat(s.cluster().partition()).isEqualTo("debug");
    }

    @Test
    void twoNicMatchesTheNetnsCluster() {
        final JobSpec s = SpecParser.parse(Path.of("configs/two-nic-2node.yaml"));
        assertThat(s.resources().nodes()).isEqualTo(2);
        assertThat(s.resources().tasksPerNode()).isEqualTo(2);
        assertThat(s.resources().nics()).containsExactly("eth0", "eth1");
        assertThat(s.cluster().partition()).isEqualTo("debug");
        assertThat(s.benchmark().backends()).containsExactly("tcp");
    }

    @Test
    void leonardoPinsTheFourPorts() {
        final JobSpec s = SpecParser.parse(Path.of("configs/leonardo-booster-2node.yaml"));
        assertThat(s.ncclEnv()).containsEntry("NCCL_IB_HCA", "=mlx5_0,mlx5_1,mlx5_2,mlx5_3");
        assertThat(s.resources().totalTasks()).isEqualTo(8);
        assertThat(s.cluster().sbatchExtra()).containsExactly("--exclusive");
    }

    @Test
    void ncclDebugAndANcclDebugVariableAreRefusedTogether() {
        final Path spec = SpecFiles.write(dir, "twice.yaml", "resources: {nodes: 1, tasks_per_node: 1}\n"
                + "nccl_env: {NCCL_DEBUG: WARN, NCCL_DEBUG_FILE: /tmp/x.%h}\nnccl: {debug: true}\n");
        assertThat(SpecFiles.problemsOf(spec)).contains("twice.yaml:2:12: nccl_env.NCCL_DEBUG: nccl.debug: true"
                + " already sets NCCL_DEBUG").contains("nccl_env.NCCL_DEBUG_FILE: nccl.debug: true already sets");
    }

    @Test
    void ownKeysOverrideTheProfileDeeply() {
        SpecFiles.write(dir, "clusters/site.yaml", "cluster: {name: site, partition: batch, qos: normal}\n"
                + "resources: {tasks_per_node: 4, gpus_per_node: 4}\nnccl_env: {NCCL_CROSS_NIC: 1}\n");
        final Path spec = SpecFiles.write(dir, "run.yaml", "extends: clusters/site.yaml\n"
                + "cluster: {qos: debug}\nresources: {nodes: 2}\nnccl_env: {NCCL_DEBUG: WARN}\n");
        final JobSpec s = SpecParser.parse(spec);
        assertThat(s.cluster().name()).isEqualTo("site");
        assertThat(s.cluster().partition()).isEqualTo("batch");
        assertThat(s.cluster().qos()).isEqualTo("debug");
        assertThat(s.resources().totalTasks()).isEqualTo(8);
        assertThat(s.ncclEnv()).containsEntry("NCCL_CROSS_NIC", "1").containsEntry("NCCL_DEBUG", "WARN");
        assertThat(s.job().name()).isEqualTo("run");
        assertThat(s.job().outputDir()).isEqualTo("results/run");
    }

    @Test
    void problemsInsideTheProfileNameTheProfile() {
        final Path profile = SpecFiles.write(dir, "clusters/bad.yaml",
                "cluster: {name: bad}\nnccl_env:\n  NCCL_NET_GDR_LEVEL: PBH\n");
        final Path spec = SpecFiles.write(dir, "run.yaml", "extends: clusters/bad.yaml\n"
                + "resources: {nodes: 1, tasks_per_node: 2, gpu: 1}\n");
        final String message = SpecFiles.problemsOf(spec);
        assertThat(message).startsWith("2 problems in " + spec);
        assertThat(message).contains(profile + ":3:23: nccl_env.NCCL_NET_GDR_LEVEL: expected one of")
                .contains(spec + ":2:42: resources.gpu: unknown key");
    }

    @Test
    void extendsLoopsAreCaught() {
        SpecFiles.write(dir, "a.yaml", "extends: b.yaml\n");
        SpecFiles.write(dir, "b.yaml", "extends: a.yaml\n");
        assertThat(SpecFiles.problemsOf(dir.resolve("a.yaml"))).contains("loop");
    }

    @Test
    void minimalSpecGetsTheDefaults() {
        final JobSpec s = SpecParser.parse(SpecFiles.write(dir, "tiny.yaml",
                "resources: {nodes: 2, tasks_per_node: 3}\n"));
        assertThat(s.job().name()).isEqualTo("tiny");
        assertThat(s.job().timeLimit()).isEqualTo("00:10:00");
        assertThat(s.cluster().name()).isEqualTo("local");
        assertThat(s.cluster().java()).isEqualTo("java");
        assertThat(s.cluster().jar()).isEqualTo("target/cctk.jar");
        assertThat(s.resources().gpuBind()).isEqualTo("none");
        assertThat(s.resources().distribution()).isEqualTo("block");
        final Benchmark b = s.benchmark();
        assertThat(b.backends()).containsExactly("tcp");
        assertThat(b.taskCounts()).containsExactly(6);
        assertThat(b.collectives()).containsExactly(CollectiveType.values());
        assertThat(b.warmupIters()).isEqualTo(5);
        assertThat(b.iters()).isEqualTo(20);
        assertThat(b.checkIters()).isEqualTo(1);
        assertThat(b.inPlace()).isEqualTo(Benchmark.InPlace.BOTH);
        assertThat(b.alltoallv()).isEqualTo(new Benchmark.Imbalance(4, null));
        assertThat(b.timeoutSeconds()).isEqualTo(120);
        assertThat(b.jitWarmupSeconds()).isEqualTo(Benchmark.DEFAULT_JIT_WARMUP_SECONDS);
        assertThat(b.repeats()).isEqualTo(Benchmark.DEFAULT_REPEATS);
        assertThat(b.retime()).isTrue();
        assertThat(b.windowMillis()).isEqualTo(Benchmark.DEFAULT_WINDOW_MILLIS);
        assertThat(b.timeAcrossRanks()).isEqualTo(Benchmark.TimeAcrossRanks.MAX);
    }

    @Test
    void scalarFormsAreAccepted() {
        final Path matrix = SpecFiles.write(dir, "m.txt", "1 2\n3 4\n");
        final JobSpec s = SpecParser.parse(SpecFiles.write(dir, "forms.yaml", "job: {name: f, time_limit: 90}\n"
                + "resources: {nodes: 1, tasks_per_node: 4}\n"
                + "benchmark: {tasks: 2, collectives: [all-reduce, broadcast], sizes: [1048576, 4MiB, 1MB],"
                + " in_place: false, timeout: 2m, jit_warmup: 1m, alltoallv: {spread: 2.5, matrix: m.txt}, dtypes: float64,"
                + " repeats: 5, retime: false, window_ms: 0, time_across_ranks: mean}\n"));
        assertThat(s.job().timeLimit()).isEqualTo("01:30:00");
        assertThat(s.benchmark().taskCounts()).containsExactly(2);
        assertThat(s.benchmark().collectives()).containsExactly(CollectiveType.ALL_REDUCE, CollectiveType.BROADCAST);
        assertThat(s.benchmark().sizes()).containsExactly(new MessageSize(1048576, true),
                new MessageSize(4L << 20, false), new MessageSize(1_000_000, false));
        assertThat(s.benchmark().inPlace()).isEqualTo(Benchmark.InPlace.OUT_OF_PLACE);
        assertThat(s.benchmark().timeoutSeconds()).isEqualTo(120);
        assertThat(s.benchmark().jitWarmupSeconds()).isEqualTo(60);
        assertThat(s.benchmark().repeats()).isEqualTo(5);
        assertThat(s.benchmark().retime()).isFalse();
        assertThat(s.benchmark().windowMillis()).isZero();
        assertThat(s.benchmark().timeAcrossRanks()).isEqualTo(Benchmark.TimeAcrossRanks.MEAN);
        assertThat(s.job().timeLimitSeconds()).isEqualTo(5400);
        assertThat(cctk.spec.Job.seconds("1-00:00:30")).isEqualTo(86_430);
        assertThat(s.benchmark().alltoallv().spread()).isEqualTo(2.5);
        assertThat(s.benchmark().alltoallv().matrixFile()).isEqualTo(matrix.toAbsolutePath().toString());
        final JobSpec again = SpecParser.parse(SpecFiles.write(dir, "out/frozen.yaml", SpecWriter.toYaml(s)));
        assertThat(again.benchmark()).isEqualTo(s.benchmark());
    }

    @Test
    void writerQuotesHostileStrings() {
        final JobSpec s = SpecParser.parse(SpecFiles.write(dir, "q.yaml", "job: {name: q}\n"
                + "resources: {nodes: 1, tasks_per_node: 1}\n"
                + "cluster: {account: \"x'; rm -rf / #\", qos: \"yes\", partition: \"null\", constraint: \"gpu&hbm80g\"}\n"
                + "env: {A: \"$(touch /tmp/x) \\\"q\\\" \\\\\", B: 007, C: \"~\"}\n"));
        final String yaml = SpecWriter.toYaml(s);
        assertThat(yaml).contains("qos: \"yes\"").contains("partition: \"null\"");
        final JobSpec again = SpecParser.parse(SpecFiles.write(dir, "out/q.yaml", yaml));
        assertThat(again.cluster()).isEqualTo(s.cluster());
        assertThat(again.env()).isEqualTo(s.env()).containsEntry("B", "007").containsEntry("C", "~");
    }
}
