package cctk.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code diagnose:} section: absent, empty, every key, the round trip, bad values named by line and key. */
@Timeout(30)
class DiagnoseSpecTest {

    private static final String BASE = "job: {name: d}\nresources: {nodes: 4, tasks_per_node: 2, nics: [eth0, eth1]}\n";

    @TempDir
    Path dir;

    @Test
    void withoutTheSectionASpecBenchmarksAndWithItAloneItDiagnosesWithTheDefaults() {
        assertThat(SpecParser.parse(SpecFiles.write(dir, "a.yaml", BASE)).diagnose()).isNull();
        assertThat(SpecParser.parse(SpecFiles.write(dir, "b.yaml", BASE + "diagnose:\n")).diagnose())
                .isEqualTo(Diagnose.DEFAULT);
        assertThat(SpecParser.parse(SpecFiles.write(dir, "c.yaml", BASE + "diagnose: {}\n")).diagnose())
                .isEqualTo(Diagnose.DEFAULT);
        assertThat(Diagnose.DEFAULT.bytes()).isEqualTo(1 << 20);
        assertThat(Diagnose.DEFAULT.threshold()).isEqualTo(0.8);
    }

    @Test
    void everyKeyIsReadAndSurvivesTheFrozenSpec() {
        final JobSpec s = SpecParser.parse(SpecFiles.write(dir, "d.yaml", BASE + "diagnose:\n  size: 4MiB\n"
                + "  warmup: 1\n  iters: 7\n  threshold: 0.5\n  confirm: false\n  limit: 30\n  window_ms: 0\n"));
        assertThat(s.diagnose()).isEqualTo(new Diagnose(new MessageSize(4 << 20, false), 1, 7, 0.5, false, 30, 0));
        final String yaml = SpecWriter.toYaml(s);
        assertThat(yaml).contains("diagnose:", "size: \"4MiB\"", "threshold: 0.5", "confirm: false");
        assertThat(SpecParser.parse(SpecFiles.write(dir, "frozen.yaml", yaml)).diagnose()).isEqualTo(s.diagnose());
        assertThat(SpecParser.parse(SpecFiles.write(dir, "e.yaml", BASE + "diagnose: {size: 1024}\n")).diagnose()
                .bytes()).as("a plain integer counts float32 elements").isEqualTo(4096);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "diagnose:\\n  threshold: 1.2\\n| 4 | diagnose.threshold | above 0 and below 1",
        "diagnose:\\n  threshold: 0\\n| 4 | diagnose.threshold | above 0 and below 1",
        "diagnose:\\n  size: 2GiB\\n| 4 | diagnose.size | from 4B to 1GiB",
        "diagnose:\\n  size: lots\\n| 4 | diagnose.size | a size such as 4MiB",
        "diagnose:\\n  iters: 0\\n| 4 | diagnose.iters | from 1 to 10000",
        "diagnose:\\n  confirm: maybe\\n| 4 | diagnose.confirm | true or false",
        "diagnose:\\n  treshold: 0.7\\n| 4 | diagnose.treshold | did you mean 'threshold'?",
        "diagnose: 3\\n| 3 | diagnose | a mapping",
        "diagnoze: {}\\n| 3 | diagnoze | did you mean 'diagnose'?",
    })
    void badValuesAreNamedWithLineAndKey(final String tail, final int line, final String key, final String text) {
        final Path file = SpecFiles.write(dir, "bad.yaml", BASE + tail.replace("\\n", "\n"));
        assertThat(SpecFiles.problemsOf(file)).contains("bad.yaml:" + line + ":", key + ": ", text);
    }
}
