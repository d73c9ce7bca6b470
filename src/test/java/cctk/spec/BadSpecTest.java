package cctk.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** One bad thing per spec; each must be named with its line, key path and what was expected. */
@Timeout(30)
class BadSpecTest {

    private static final String RES = "resources: {nodes: 1, tasks_per_node: 2}\n";
    private static final String GPU = "resources: {nodes: 1, tasks_per_node: 2, gpus_per_node: 2}\n";

    @TempDir
    Path dir;

    static Stream<Arguments> badSpecs() {
        return Stream.of(
            bad("job:\n  name: a b\n" + RES, 2, "job.name", "expected a job name"),
            bad("job:\n  time_limit: \"25:00\"\n" + RES, 2, "job.time_limit", "HH:MM:SS"),
            bad("job:\n  time_limit: 0\n" + RES, 2, "job.time_limit", "from 1 to"),
            bad("job:\n  nme: x\n" + RES, 2, "job.nme", "did you mean 'name'?"),
            bad(RES + "resource:\n  nodes: 2\n", 2, "resource", "did you mean 'resources'?"),
            bad("resources:\n  nodes: 0\n  tasks_per_node: 2\n", 2, "resources.nodes", "from 1 to 100000"),
            bad("resources:\n  nodes: two\n  tasks_per_node: 2\n", 2, "resources.nodes", "found a string 'two'"),
            bad("resources:\n  nodes: 1\n  tasks_per_nod: 2\n", 3, "resources.tasks_per_nod",
                "did you mean 'tasks_per_node'?"),
            bad("resources:\n  nodes: 1\n", 2, "resources.tasks_per_node", "required"),
            bad(RES + "# gpus\nresources:\n  nodes: 1\n  tasks_per_node: 2\n  gpus_per_node: -1\n", 3,
                "resources", "duplicate key"),
            bad("resources:\n  nodes: 1\n  tasks_per_node: 2\n  cpus_per_task: 1.5\n", 4,
                "resources.cpus_per_task", "found a number '1.5'"),
            bad("resources:\n  nodes: 1\n  tasks_per_node: 2\n  gpu_bind: sometimes\n", 4, "resources.gpu_bind",
                "--gpu-bind"),
            bad("resources:\n  nodes: 1\n  tasks_per_node: 2\n  distribution: random\n", 4,
                "resources.distribution", "--distribution"),
            bad("resources:\n  nodes: 1\n  tasks_per_node: 2\n  nics: [eth0, averyveryverylongname0]\n", 4,
                "resources.nics[1]", "at most 15 characters"),
            bad("resources:\n  nodes: 1\n  tasks_per_node: 2\n  nics: eth0\n", 4, "resources.nics",
                "expected a list of strings"),
            bad(RES + "nccl_env:\n  NCCL_NET_GDR_LEVEL: PBH\n", 3, "nccl_env.NCCL_NET_GDR_LEVEL", "PHB, SYS"),
            bad(RES + "nccl_env:\n  NCCL_P2P_LEVEL: phb\n", 3, "nccl_env.NCCL_P2P_LEVEL", "upper case"),
            bad(RES + "nccl_env:\n  NCCL_BUFFSIZE: \"08388608\"\n", 3, "nccl_env.NCCL_BUFFSIZE", "leading zeros"),
            bad(RES + "nccl_env:\n  NCCL_IB_HCA: \"mlx5_0,^mlx5_1\"\n", 3, "nccl_env.NCCL_IB_HCA", "^="),
            bad(RES + "nccl_env:\n  NCCL_SOCKET_IFNAME: \"eth0:1\"\n", 3, "nccl_env.NCCL_SOCKET_IFNAME",
                "no :port"),
            bad(RES + "nccl_env:\n  NCCL_SOCKET_IFNAM: eth0\n", 3, "nccl_env.NCCL_SOCKET_IFNAM",
                "did you mean 'NCCL_SOCKET_IFNAME'?"),
            bad(RES + "nccl_env:\n  NCCL_CROSS_NIC: 3\n", 3, "nccl_env.NCCL_CROSS_NIC", "from 0 to 2"),
            bad(RES + "nccl_env:\n  NCCL_DEBUG: LOUD\n", 3, "nccl_env.NCCL_DEBUG", "VERSION, WARN, INFO"),
            bad(RES + "nccl_env:\n  NCCL_ALGO: ring;tree\n", 3, "nccl_env.NCCL_ALGO", "func:list"),
            bad(RES + "nccl_env:\n  NCCL_PROTO: Simpel\n", 3, "nccl_env.NCCL_PROTO", "did you mean 'Simple'?"),
            bad(RES + "nccl_env:\n  NCCL_IB_GDR_LEVEL: PHB\n", 3, "nccl_env.NCCL_IB_GDR_LEVEL",
                "NCCL_NET_GDR_LEVEL"),
            bad(RES + "nccl_env:\n  NCCL_SOCKET_NTHREADS: 16\n  NCCL_NSOCKS_PERTHREAD: 8\n", 3,
                "nccl_env.NCCL_NSOCKS_PERTHREAD", "<= 64"),
            bad(RES + "nccl_env:\n  NCCL_COMM_ID: node1\n", 3, "nccl_env.NCCL_COMM_ID", "host:port"),
            bad(RES + "env:\n  NCCL_DEBUG: INFO\n", 3, "env.NCCL_DEBUG", "nccl_env"),
            bad(RES + "env:\n  A-B: x\n", 3, "env.A-B", "shell variable name"),
            bad(RES + "env:\n  X: [a]\n", 3, "env.X", "expected a value"),
            bad(RES + "cluster:\n  partition: \"a\\nb\"\n", 3, "cluster.partition", "without newlines"),
            bad(RES + "cluster:\n  sbatch_extra: [exclusive]\n", 3, "cluster.sbatch_extra[0]",
                "one whole sbatch option"),
            bad(RES + "cluster:\n  srun_extra: [network=x]\n", 3, "cluster.srun_extra[0]",
                "one whole srun option"),
            bad(RES + "cluster: [a]\n", 2, "cluster", "expected a mapping"),
            bad(RES + "benchmark:\n  backends: [mpi]\n", 3, "benchmark.backends[0]", "tcp, tcp-flat, gloo or nccl"),
            bad(RES + "benchmark:\n  backends: [nccl]\n", 3, "benchmark.backends[0]", "needs GPUs"),
            bad(RES + "benchmark:\n  tasks: [2, 5]\n", 3, "benchmark.tasks[1]", "at most 2 tasks"),
            bad(RES + "benchmark:\n  collectives: [allreduce]\n", 3, "benchmark.collectives[0]",
                "did you mean 'all_reduce'?"),
            bad(RES + "benchmark:\n  sizes: [1MiB, 4XB]\n", 3, "benchmark.sizes[1]", "expected a size"),
            bad(RES + "benchmark:\n  sizes: {min: 1KiB, max: 16}\n", 3, "benchmark.sizes", "same unit"),
            bad(RES + "benchmark:\n  sizes: {min: 4MiB, max: 1KiB}\n", 3, "benchmark.sizes", "min <= max"),
            bad(RES + "benchmark:\n  sizes: {min: 1KiB}\n", 3, "benchmark.sizes.max", "required"),
            bad(RES + "benchmark:\n  sizes: [\"1024\"]\n", 3, "benchmark.sizes[0]", "unit for bytes"),
            bad(RES + "benchmark:\n  sizes: [32GiB]\n", 3, "benchmark.sizes[0]", "16GiB"),
            bad(RES + "benchmark:\n  dtypes: [float128]\n", 3, "benchmark.dtypes[0]", "float32"),
            bad(RES + "benchmark:\n  ops: [avg, avg]\n", 3, "benchmark.ops[1]", "each name once"),
            bad(RES + "benchmark:\n  warmup: -1\n", 3, "benchmark.warmup", "from 0 to"),
            bad(RES + "benchmark:\n  iters: 0\n", 3, "benchmark.iters", "from 1 to"),
            bad(RES + "benchmark:\n  in_place: maybe\n", 3, "benchmark.in_place", "both, true or false"),
            bad(GPU + "benchmark:\n  root: 2\n", 3, "benchmark.root", "from 0 to 1"),
            bad(RES + "benchmark:\n  timeout: 10x\n", 3, "benchmark.timeout", "timeout in seconds"),
            bad(RES + "benchmark:\n  timeout: 0\n", 3, "benchmark.timeout", "from 1 to"),
            bad(RES + "benchmark:\n  jit_warmup: 11m\n", 3, "benchmark.jit_warmup", "from 0 (none) to 10m"),
            bad(RES + "benchmark:\n  jit_warmup: -1\n", 3, "benchmark.jit_warmup", "from 0 to 600"),
            bad(RES + "benchmark:\n  repeats: 0\n", 3, "benchmark.repeats", "from 1 to 1000"),
            bad(RES + "benchmark:\n  retime: sometimes\n", 3, "benchmark.retime", "true or false"),
            bad(RES + "benchmark:\n  window_ms: -1\n", 3, "benchmark.window_ms", "from 0 to 60000"),
            bad(RES + "benchmark:\n  time_across_ranks: average\n", 3, "benchmark.time_across_ranks",
                "expected max or mean"),
            bad(RES + "benchmark:\n  time_across_ranks: meen\n", 3, "benchmark.time_across_ranks",
                "did you mean 'mean'?"),
            bad(RES + "benchmark:\n  time_across_ranks: [max]\n", 3, "benchmark.time_across_ranks",
                "expected max or mean"),
            bad(RES + "benchmark:\n  alltoallv: {spread: 0.5}\n", 3, "benchmark.alltoallv.spread",
                "a number from 1"),
            bad(RES + "benchmark:\n  alltoallv:\n    matrix: nope.txt\n", 4, "benchmark.alltoallv.matrix",
                "readable matrix file"),
            bad(RES + "benchmark:\n  warmpu: 3\n", 3, "benchmark.warmpu", "did you mean 'warmup'?"),
            bad("extends: 5\n" + RES, 1, "extends", "the path of a profile"),
            bad("extends: clusters/missing.yaml\n" + RES, 1, "extends", "no such profile"),
            bad(RES + "job:\n  name: !!binary aGk=\n", 3, "job.name", "not supported"));
    }

    private static Arguments bad(final String yaml, final int line, final String keyPath, final String fragment) {
        return Arguments.of(yaml, line, keyPath, fragment);
    }

    @ParameterizedTest(name = "[{index}] line {1} {2}: {3}")
    @MethodSource("badSpecs")
    void namesLineKeyAndExpectation(final String yaml, final int line, final String keyPath, final String fragment) {
        final Path file = SpecFiles.write(dir, "spec.yaml", yaml);
        final String message = SpecFiles.problemsOf(file);
        assertThat(message).startsWith(message.lines().count() - 1 + " problem");
        final String prefix = file + ":" + line + ":";
        assertThat(message.lines().filter(l -> l.startsWith(prefix))
                .filter(l -> l.contains(": " + keyPath + ": ") && l.contains(fragment)))
                .as("a line '%s... %s: ...%s...' in:%n%s", prefix, keyPath, fragment, message)
                .isNotEmpty();
    }

    @Test
    void atLeastThirtyFiveCases() {
        assertThat(badSpecs().count()).isGreaterThanOrEqualTo(35);
    }

    @Test
    void reportsEveryProblemOfAFileAtOnce() {
        final Path file = SpecFiles.write(dir, "many.yaml", String.join("\n", Arrays.asList(
                "job: {name: 'a b'}",
                "resources: {nodes: 1, tasks_per_node: 2, gpus: 4}",
                "nccl_env: {NCCL_NET_GDR_LEVEL: PBH, NCCL_FOO: 1}",
                "benchmark: {iters: 0, sizes: [1XB]}")));
        final String message = SpecFiles.problemsOf(file);
        assertThat(message.lines().findFirst()).contains("6 problems in " + file);
        assertThat(message.lines().skip(1)).hasSize(6).allMatch(l -> l.startsWith(file + ":"));
        assertThat(message).contains("found 'PBH'").contains("resources.gpus: unknown key");
    }
}
