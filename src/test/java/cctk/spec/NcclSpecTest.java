package cctk.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import cctk.CctkException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code nccl:} section: defaults, every key, the backend alias, the round trip, bad values. */
@Timeout(30)
class NcclSpecTest {

    private static final String GPU = "resources: {nodes: 1, tasks_per_node: 2, gpus_per_node: 2}\n";

    @TempDir
    Path dir;

    @Test
    void withoutASectionTheDefaultsHold() {
        final JobSpec s = SpecParser.parse(SpecFiles.write(dir, "a.yaml", GPU + "benchmark: {backends: [nccl]}\n"));
        assertThat(s.nccl()).isEqualTo(NcclOptions.DEFAULT);
        assertThat(s.nccl().timing()).isEqualTo(cctk.comm.nccl.NcclConfig.Timing.PIPELINED);
        assertThat(s.nccl().serves("nccl")).isTrue();
        assertThat(s.nccl().serves("tcp")).isFalse();
    }

    @Test
    void everyKeyIsReadAndTheAliasBecomesABackendThatSurvivesTheRoundTrip() {
        final Path file = SpecFiles.write(dir, "b.yaml", GPU + "nccl:\n  backend_name: ncclx\n"
                + "  library: /opt/ncclx/lib\n  devices: [1, 0]\n  debug: true\n  timing: graph\n  profiler: nsys\n"
                + "benchmark: {backends: [tcp, ncclx]}\n");
        final JobSpec s = SpecParser.parse(file);
        assertThat(s.nccl()).isEqualTo(new NcclOptions("ncclx", "/opt/ncclx/lib", List.of(1, 0), true,
                cctk.comm.nccl.NcclConfig.Timing.GRAPH, NcclOptions.Profiler.NSYS));
        assertThat(s.benchmark().backends()).containsExactly("tcp", "ncclx");
        assertThat(s.nccl().serves("ncclx")).isTrue();
        final String yaml = SpecWriter.toYaml(s);
        assertThat(yaml).contains("nccl:", "backend_name: \"ncclx\"", "devices: [1, 0]", "debug: true",
                "timing: \"graph\"", "profiler: \"nsys\"");
        final JobSpec again = SpecParser.parse(SpecFiles.write(dir, "frozen.yaml", yaml));
        assertThat(again.nccl()).isEqualTo(s.nccl());
        assertThat(again.benchmark()).isEqualTo(s.benchmark());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "nccl:\\n  timing: eventually\\n| 4 | nccl.timing | one of pipelined, blocking, graph",
        "nccl:\\n  timing: graf\\n| 4 | nccl.timing | did you mean 'graph'?",
        "nccl:\\n  profiler: vtune\\n| 4 | nccl.profiler | one of none, nsys, ncu",
        "nccl:\\n  debug: 2\\n| 4 | nccl.debug | true or false",
        "nccl:\\n  devices: 0\\n| 4 | nccl.devices | a list of GPU indices",
        "nccl:\\n  devices: [0, 99]\\n| 4 | nccl.devices[1] | from 0 to 63",
        "nccl:\\n  library: lib/libnccl.so.2\\n| 4 | nccl.library | an absolute path",
        "nccl:\\n  backend_name: tcp\\n| 4 | nccl.backend_name | not tcp",
        "nccl:\\n  backend_name: NCCL X\\n| 4 | nccl.backend_name | lower-case",
        "nccl:\\n  debgu: true\\n| 4 | nccl.debgu | did you mean 'debug'?",
        "benchmark: {backends: [ncclx]}\\n| 3 | benchmark.backends[0] | tcp, tcp-flat, gloo or nccl",
    })
    void badValuesAreNamedWithLineAndKey(final String tail, final int line, final String key, final String text) {
        final Path file = SpecFiles.write(dir, "bad.yaml", GPU + "job: {name: t}\n" + tail.replace("\\n", "\n"));
        assertThat(SpecFiles.problemsOf(file)).contains("bad.yaml:" + line + ":", key + ": ", text);
    }

    @Test
    void theAliasNeedsGpusLikeNccl() {
        final Path file = SpecFiles.write(dir, "c.yaml", "resources: {nodes: 1, tasks_per_node: 2}\n"
                + "nccl: {backend_name: ncclx}\nbenchmark: {backends: [ncclx]}\n");
        final CctkException e = catchThrowableOfType(CctkException.class, () -> SpecParser.parse(file));
        assertThat(e.getMessage()).contains("benchmark.backends[0]: ", "ncclx needs GPUs");
    }
}
