package cctk.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code tcp:} section and the backend {@code tcp-flat}: defaults, every value, the round trip, bad values. */
@Timeout(30)
class TcpSpecTest {

    private static final String CPU = "resources: {nodes: 2, tasks_per_node: 2}\n";

    @TempDir
    Path dir;

    @Test
    void withoutASectionSharedMemoryAndTheAutomaticChoiceHold() {
        final JobSpec s = SpecParser.parse(SpecFiles.write(dir, "a.yaml", CPU));
        assertThat(s.tcp()).isEqualTo(TcpSettings.DEFAULT);
        assertThat(s.tcp()).isEqualTo(new TcpSettings(TcpSettings.Shm.AUTO, TcpSettings.Algorithm.AUTO));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{shm: off, algorithm: flat}       | OFF  | FLAT",
        "{shm: false}                      | OFF  | AUTO",
        "{shm: auto, algorithm: hierarchical} | AUTO | HIERARCHICAL",
        "{shm: true, algorithm: auto}      | AUTO | AUTO",
    })
    void everyValueIsReadAndSurvivesTheRoundTrip(final String section, final TcpSettings.Shm shm,
                                                   final TcpSettings.Algorithm algorithm) {
        final JobSpec s = SpecParser.parse(SpecFiles.write(dir, "b.yaml", CPU + "tcp: " + section + "\n"
            + "benchmark: {backends: [tcp, tcp-flat]}\n"));
        assertThat(s.tcp()).isEqualTo(new TcpSettings(shm, algorithm));
        assertThat(s.benchmark().backends()).containsExactly("tcp", "tcp-flat");
        final String yaml = SpecWriter.toYaml(s);
        assertThat(yaml).contains("tcp:", "shm: \"" + shm.specName() + "\"",
            "algorithm: \"" + algorithm.specName() + "\"");
        final JobSpec again = SpecParser.parse(SpecFiles.write(dir, "frozen.yaml", yaml));
        assertThat(again.tcp()).isEqualTo(s.tcp());
        assertThat(again.benchmark().backends()).isEqualTo(s.benchmark().backends());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "tcp:\\n  algorithm: ring\\n| 4 | tcp.algorithm | one of auto, hierarchical, flat",
        "tcp:\\n  algorithm: hierarchicl\\n| 4 | tcp.algorithm | did you mean 'hierarchical'?",
        "tcp:\\n  shm: sometimes\\n| 4 | tcp.shm | one of auto, off",
        "tcp:\\n  shm: off\\n  algorithm: hierarchical\\n| 5 | tcp.algorithm | tcp.shm is off",
        "tcp:\\n  sm: off\\n| 4 | tcp.sm | did you mean 'shm'?",
        "nccl:\\n  backend_name: tcp-flat\\n| 4 | nccl.backend_name | not tcp or tcp-flat",
        "benchmark: {backends: [tcp-flt]}\\n| 3 | benchmark.backends[0] | tcp, tcp-flat, gloo or nccl",
    })
    void badValuesAreNamedWithLineAndKey(final String tail, final int line, final String key, final String text) {
        final Path file = SpecFiles.write(dir, "bad.yaml", CPU + "job: {name: t}\n" + tail.replace("\\n", "\n"));
        assertThat(SpecFiles.problemsOf(file)).contains("bad.yaml:" + line + ":", key + ": ", text);
    }
}
