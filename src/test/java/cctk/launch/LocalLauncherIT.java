package cctk.launch;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.CpuList;
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

    /**
     * Real taskset, real affinity: ranks that outnumber the launcher's CPUs (two of this machine's, or one) run each
     * on one of them in turn, as each rank reads its own affinity back; with {@code none}, or where they fit, every
     * rank keeps the launcher's.
     */
    @Test
    void ranksThatOutnumberTheCpusAreBoundEachToOneInTurn() {
        final CpuList mine = CpuList.allowed();
        assertThat(mine).as("Cpus_allowed_list of /proc/self/status (Linux)").isNotNull();
        final Path taskset = CpuBinding.tasksetOnPath(cctk.Environment.process().optional(cctk.EnvVar.PATH));
        assertThat(taskset).as("util-linux's taskset (Debian: essential)").isNotNull();
        final CpuList two = new CpuList(mine.cpus().subList(0, Math.min(2, mine.size())));
        final int world = two.size() + 1;
        final LocalLauncher bound = new LocalLauncher(new PrintWriter(out), new PrintWriter(err), Duration.ofSeconds(5),
                new CpuBinding(CpuBinding.Mode.AUTO, two, taskset));
        assertThat(bound.run(world, tiny("exit", "-1", "0"))).as(err.toString()).isZero();
        for (int r = 0; r < world; r++) {
            assertThat(out.toString()).contains("[rank " + r + "] hello from " + r + " of " + world + " on CPUs "
                + two.get(r % two.size()) + "\n");
        }
        assertThat(out.toString()).contains("cctk run: " + world + " ranks on " + two.size() + " CPU(s) ("
            + two.text() + "), each bound to one (taskset -c)");
        unbound(new CpuBinding(CpuBinding.Mode.NONE, two, taskset), world, mine);
        assertThat(out.toString()).contains("), not bound (--cpu-bind none)");
        unbound(new CpuBinding(CpuBinding.Mode.AUTO, two, taskset), two.size(), mine);
    }

    /** Runs {@code world} ranks placed by {@code b}: each keeps the launcher's CPUs, {@code mine}. */
    private void unbound(final CpuBinding b, final int world, final CpuList mine) {
        out.getBuffer().setLength(0);
        assertThat(new LocalLauncher(new PrintWriter(out), new PrintWriter(err), Duration.ofSeconds(5), b)
                .run(world, tiny("exit", "-1", "0"))).as(err.toString()).isZero();
        for (int r = 0; r < world; r++) {
            assertThat(out.toString()).contains("[rank " + r + "] hello from " + r + " of " + world + " on CPUs "
                + mine.text() + "\n");
        }
        assertThat(out.toString()).doesNotContain("each bound to one");
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
