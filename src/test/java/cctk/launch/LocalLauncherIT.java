package cctk.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Real rank processes on this machine. */
@Tag("slow")
@Timeout(120)
class LocalLauncherIT {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int launch(final int world, final Duration grace, final List<String> command) {
        return new LocalLauncher(new PrintWriter(out), new PrintWriter(err), grace).run(world, command);
    }

    private static List<String> tiny(final String... args) {
        final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), TinyRank.class.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    @Test
    void threeRanksWithPrefixedOutput() {
        assertThat(launch(3, Duration.ofSeconds(5), tiny("exit", "-1", "0"))).isZero();
        assertThat(out.toString()).contains("[rank 0] hello from 0 of 3", "[rank 1] hello from 1 of 3",
                "[rank 2] hello from 2 of 3");
        assertThat(err.toString()).contains("[rank 2] note from 2");
    }

    @Test
    void aFailingRankStopsTheOthersAfterTheGraceAndGivesItsCode() {
        final long start = System.nanoTime();
        assertThat(launch(3, Duration.ofSeconds(1), tiny("exit", "1", "2"))).isEqualTo(2);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
        assertThat(err.toString()).contains("stopping rank 0", "stopping rank 2").doesNotContain("stopping rank 1");
    }

    @Test
    void aKilledRankMakesTheOthersFailNamingIt() {
        final long start = System.nanoTime();
        final int code = launch(3, Duration.ofSeconds(30), tiny("die", "2"));
        assertThat(code).isEqualTo(3);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(25));
        assertThat(err.toString())
                .contains("[rank 0] failed: rank 2 (host")
                .contains("[rank 1] failed: rank 2 (host")
                .doesNotContain("stopping rank");
    }

    @Test
    void cctkRankWhoAmIAcrossThreeProcesses() {
        assertThat(launch(3, Duration.ofSeconds(5), LocalLauncher.cctkCommand(List.of("rank", "--timeout", "30"))))
                .as(err.toString()).isZero();
        for (int r = 0; r < 3; r++) {
            assertThat(out.toString()).contains("[rank " + r + "] rank " + r + "/3 local " + r)
                    .contains("[rank " + r + "] rank " + r + ": all 3 ranks met at 127.0.0.1:");
        }
        assertThat(out.toString() + err.toString()).doesNotContain("CCTK_SECRET=");
    }
}
