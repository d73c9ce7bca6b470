package cctk.comm.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Ranks as real processes: a correct all-reduce, and a rank killed with SIGKILL being named by the others. */
@Tag("slow")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TcpProcessesIT {

    @TempDir
    Path store;

    @Test
    void processesAllReduceCorrectly() throws Exception {
        final List<Process> ranks = start(3, "check");
        for (final Process p : ranks) {
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
                    .isZero();
        }
    }

    @Test
    void aKilledRankIsNamedByItsNeighbourWithinTheDeadline() throws Exception {
        final List<Process> ranks = start(3, "loop");
        for (final Process p : ranks) {
            final BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8));
            assertThat(out.readLine()).endsWith("ready");
        }
        final long t0 = System.nanoTime();
        ranks.get(2).destroyForcibly();
        final List<String> errors = new ArrayList<>();
        for (final Process p : ranks.subList(0, 2)) {
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isEqualTo(3);
            errors.add(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        }
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0)).isLessThan(15);
        assertThat(String.join("\n", errors)).contains("rank 2");
    }

    private List<Process> start(final int world, final String mode) throws Exception {
        Files.createDirectories(store);
        final List<Process> ranks = new ArrayList<>();
        for (int r = 0; r < world; r++) {
            ranks.add(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), TcpRankMain.class.getName(),
                    Integer.toString(r), Integer.toString(world), store.toString(), mode).start());
        }
        return ranks;
    }
}
