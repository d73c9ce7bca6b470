package cctk.results;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.results.inputs.ResultReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The machine's cross-core readings in a run's files: the one before the warm-up in the header and {@code args}, the
 * one after the sweep in the footer and {@code summary}, and both read back from the JSON for {@code cctk compare}.
 */
@Timeout(20)
class CrossCoreReadingsTest {

    @TempDir
    Path dir;

    static Run withReading(final double us) {
        final Run h = ResultFilesTest.header();
        final Map<String, Object> args = new LinkedHashMap<>(h.args());
        args.put(CrossCoreReadings.ARG, CrossCoreReadings.json(us, 60, us * 0.9, false, null));
        return new Run(null, h.version(), h.spec(), h.jobId(), h.cluster(), h.backend(), h.world(), h.start(),
            h.ranks(), h.hosts(), h.environment(), args, h.references(), null, null);
    }

    @Test
    void bothReadingsAreWrittenAndReadBackFromTheJson() throws IOException {
        final ResultFiles files = ResultFiles.create(dir, withReading(95.27));
        files.add(ResultFilesTest.allReduce());
        files.machine(CrossCoreReadings.json(480.4, 40, 470, false, null));
        final List<Path> paths = files.finish(null);
        final String text = Files.readString(paths.get(0));
        assertThat(text).contains("# machine: a 1 MiB round trip between two cores (two threads of rank 0) took 95 µs"
            + " before the warm-up", "# Machine: a 1 MiB round trip between two cores (two threads of rank 0) took 480"
            + " µs after the sweep, 95 µs before the warm-up: the machine changed during the run (more than 2x)");
        final Run back = ResultReader.read(List.of(paths.get(2))).runs().get(0);
        assertThat(CrossCoreReadings.of(back)).containsExactly(95.27, 480.4);
    }

    @Test
    void readingsWithinTwofoldAreNoChangeAndADisturbedOneIsNoReading() {
        assertThat(CrossCoreReadings.sentence(reading(95), reading(120))).endsWith("took 120 µs after the sweep, 95 µs"
            + " before the warm-up");
        assertThat(CrossCoreReadings.changed(95, 180)).isFalse();
        assertThat(CrossCoreReadings.changed(95, 200)).isTrue();
        assertThat(CrossCoreReadings.changed(Double.NaN, 500)).isFalse();
        final Map<String, Object> none = CrossCoreReadings.json(Double.NaN, 0, Double.NaN, false, "one CPU");
        assertThat(none).isEqualTo(Map.of(CrossCoreReadings.KEY, Map.of("none", "one CPU")));
        assertThat(CrossCoreReadings.us(none)).isNaN();
        assertThat(CrossCoreReadings.us(Map.of(CrossCoreReadings.KEY, Map.of("us", "95")))).isNaN();
        assertThat(CrossCoreReadings.sentence(reading(95), none)).isEqualTo("a 1 MiB round trip between two cores"
            + " (two threads of rank 0) took none (one CPU) after the sweep, 95 µs before the warm-up");
        // other threads held the cores: the figure is kept in the file but is no reading of the machine's handoff
        final Map<String, Object> busy = CrossCoreReadings.json(8003, 64, 96, true, null);
        assertThat(CrossCoreReadings.us(busy)).isNaN();
        assertThat(CrossCoreReadings.sentence(reading(95), busy)).isEqualTo("a 1 MiB round trip between two cores"
            + " (two threads of rank 0) was disturbed (8003 µs: other threads held the cores) after the sweep, 95 µs"
            + " before the warm-up");
        assertThat(CrossCoreReadings.text(new double[] {95.4, 480.6})).isEqualTo("95 and 481 µs");
    }

    private static Map<String, Object> reading(final double us) {
        return CrossCoreReadings.json(us, 60, us * 0.9, false, null);
    }
}
