package cctk.launch;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.AdversarialTally;
import cctk.AdversarialTally.Outcome;
import cctk.comm.shm.SegmentsOnDisk;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A launcher killed outright (SIGKILL: no shutdown hook runs) must not leave its ranks running to the end of
 * their sweep as orphans of PID 1: they notice within a second and stop, and leave none of the shared-memory
 * segments they made (two ranks on one host run the CPU backend through /dev/shm). Real processes: {@code cctk run}
 * of a sweep far longer than the test, and {@code cctk demo}.
 */
@Tag("slow")
@Timeout(120)
class LauncherDeathIT {

    /** Within a second on an idle machine; this bound leaves room for a loaded CI machine (exit runs hooks). */
    private static final Duration LIMIT = Duration.ofSeconds(5);
    private static final AdversarialTally TALLY = new AdversarialTally("resource and signal faults");

    @TempDir
    Path dir;

    @AfterAll
    static void report() {
        TALLY.report();
    }

    private static List<String> cctk(final String... args) {
        final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), "cctk.cli.Main"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    @Test
    void ranksOfAKilledRunStopWithinSeconds() throws Exception {
        final Path spec = dir.resolve("long.yaml");
        Files.writeString(spec, """
                job:
                  name: long
                  output_dir: %s
                resources:
                  nodes: 1
                  tasks_per_node: 2
                benchmark:
                  tasks: [2]
                  collectives: [all_reduce]
                  sizes: [4MiB]
                  warmup: 1
                  iters: 1000000
                  jit_warmup: 0
                  timeout: 60s
                """.formatted(dir.resolve("results")), StandardCharsets.UTF_8);
        killLauncherOnceRanksRun("cctk run of an endless sweep", cctk("run", spec.toString()), "rank 0");
    }

    @Test
    void ranksOfAKilledDemoStop() throws Exception {
        // killed as soon as both rank JVMs exist: they are still starting or meeting, and must stop all the same
        killLauncherOnceRanksRun("cctk demo", cctk("demo", "alltoall", "--nproc", "2", "--msg-bytes", "64MiB"), "");
    }

    private void killLauncherOnceRanksRun(final String what, final List<String> command, final String started)
            throws Exception {
        final Path log = dir.resolve("launcher.log");
        final Set<Path> before = new HashSet<>();
        SegmentsOnDisk.in(SegmentsOnDisk.DEFAULT).forEach(g -> before.add(g.path()));
        final Process launcher = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                .start();
        try {
            final List<ProcessHandle> ranks = awaitRanks(launcher, log, started);
            launcher.destroyForcibly(); // SIGKILL
            assertThat(launcher.waitFor(10, TimeUnit.SECONDS)).isTrue();
            final long reaped = System.nanoTime();
            final long end = reaped + LIMIT.toNanos();
            while (System.nanoTime() < end && ranks.stream().anyMatch(ProcessHandle::isAlive)) {
                Thread.sleep(20);
            }
            final boolean orphans = ranks.stream().anyMatch(ProcessHandle::isAlive);
            System.out.printf("%s: ranks gone %d ms after the launcher's SIGKILL was reaped (load %s)%n", what,
                    (System.nanoTime() - reaped) / 1_000_000, Files.readString(Path.of("/proc/loadavg")).trim());
            TALLY.record("SIGKILL of " + what, orphans ? Outcome.HANG : Outcome.HANDLED);
            assertThat(orphans).as("%s: rank processes %s still alive %s after the launcher's SIGKILL; log:%n%s",
                    what, ranks, LIMIT, Files.readString(log)).isFalse();
            final List<Long> pids = ranks.stream().map(ProcessHandle::pid).toList();
            final List<SegmentsOnDisk.Segment> left = SegmentsOnDisk.in(SegmentsOnDisk.DEFAULT).stream()
                    .filter(g -> pids.contains(g.pid()) || g.pid() < 0 && !before.contains(g.path())).toList();
            System.out.printf("%s: segments of ranks %s left in %s: %s%n", what, pids, SegmentsOnDisk.DEFAULT, left);
            assertThat(left).as("%s: shared-memory segments the ranks left", what).isEmpty();
        } finally {
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly();
        }
    }

    /** The launcher's two rank processes, once the log shows they are running. */
    private static List<ProcessHandle> awaitRanks(final Process launcher, final Path log, final String started)
            throws IOException, InterruptedException {
        final long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < end) {
            final List<ProcessHandle> ranks = launcher.descendants().filter(p -> p.info().command()
                    .map(c -> c.endsWith("java")).orElse(false)).toList();
            if (ranks.size() == 2 && Files.readString(log).contains(started)) {
                return ranks;
            }
            assertThat(launcher.isAlive()).as("the launcher ended early:%n%s", Files.readString(log)).isTrue();
            Thread.sleep(50);
        }
        throw new AssertionError("no two running ranks within 60 s:\n" + Files.readString(log));
    }
}
