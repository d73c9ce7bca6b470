package cctk.launch;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.AdversarialTally;
import cctk.AdversarialTally.Outcome;
import cctk.CsvRows;
import cctk.comm.shm.SegmentsOnDisk;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
 * of a sweep far longer than the test, and {@code cctk demo}. Also: rank 0 killed outright leaves its cause, and
 * rows skipped for want of shared memory fail the run.
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

    /**
     * {@code kill -9} of rank 0, the store's host and the only writer of the result files: it leaves part files,
     * and beside them a rank that survived writes the cause (owner-only), which {@code cctk run} prints, naming
     * rank 0 and SIGKILL, and which {@code cctk report} shows for the run.
     */
    @Test
    void rankZeroKilledLeavesItsCauseBesideThePartFiles() throws Exception {
        final Path results = dir.resolve("results");
        final Path spec = dir.resolve("zero.yaml");
        Files.writeString(spec, """
                job: {name: zero, output_dir: %s}
                resources: {nodes: 1, tasks_per_node: 3}
                benchmark:
                  tasks: [3]
                  backends: [tcp]
                  collectives: [all_reduce]
                  sizes: {min: 1KiB, max: 256MiB, factor: 2}
                  dtypes: [float32]
                  warmup: 1
                  iters: 20
                  jit_warmup: 0
                  timeout: 20s
                """.formatted(results), StandardCharsets.UTF_8);
        final Path log = dir.resolve("zero.log");
        final Process launcher = new ProcessBuilder(cctk("run", spec.toString())).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        try {
            final Path txt = awaitRows(launcher, results, log);
            final java.util.regex.Matcher pid = java.util.regex.Pattern.compile("rank 0 host \\S+ pid ([0-9]+)")
                    .matcher(Files.readString(txt));
            assertThat(pid.find()).isTrue();
            new ProcessBuilder("kill", "-9", pid.group(1)).inheritIO().start().waitFor();
            final boolean ended = launcher.waitFor(60, TimeUnit.SECONDS);
            final String out = Files.readString(log);
            final List<Path> causes;
            try (var files = Files.list(results)) {
                causes = files.filter(f -> f.toString().endsWith(".cause")).toList();
            }
            final boolean named = ended && out.contains("rank 0 was killed by SIGKILL") && causes.size() == 1
                    && Files.readString(causes.get(0)).contains("rank 0");
            TALLY.record("kill -9 of rank 0 (the store's host) mid-sweep", !ended ? Outcome.HANG
                    : launcher.exitValue() != 3 ? Outcome.WRONG_EXIT_CODE : named ? Outcome.CLEAR_ERROR
                    : Outcome.ROWS_LOST);
            assertThat(ended).as(out).isTrue();
            assertThat(launcher.exitValue()).as(out).isEqualTo(3);
            assertThat(out).as("cctk run names rank 0").contains("[cctk run] rank 0 was killed by SIGKILL");
            assertThat(causes).as("one cause file beside the part files; %s", out).hasSize(1);
            final String cause = Files.readString(causes.get(0));
            // which of its waits sees rank 0 go first is a race: a shared-memory wait sees the process gone, an
            // exchange over the store (between points) its connection closed; either names rank 0 from a typed fault
            assertThat(cause).as(out).matches("rank [12]: (rank 0 \\(process [0-9]+\\) is gone|lost the connection"
                    + " to rank 0's store at \\S+: rank 0 exited or failed) (?s).*");
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(
                    causes.get(0)))).isEqualTo("rw-------");
            assertThat(out).contains("the run ended early: " + cause.strip());
            final Path report = dir.resolve("report");
            final Process rep = new ProcessBuilder(cctk("report", "-o", report.toString(), results.toString()))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("report.log").toFile()).start();
            assertThat(rep.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(rep.exitValue()).as(Files.readString(dir.resolve("report.log"))).isZero();
            assertThat(Files.readString(report.resolve("analysis.txt"))).contains("STOPPED EARLY: " + cause.strip());
            assertThat(Files.readString(dir.resolve("report.log"))).contains("stopped early: " + cause.strip());
        } finally {
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly();
        }
    }

    /**
     * Shared memory too small for the larger sizes (a 2 MiB /dev/shm, in a mount namespace of the run's own, as
     * root): the rows that fit are measured and kept, the others skipped with the reason, and the run is exit 3.
     */
    @Test
    void rowsSkippedForWantOfSharedMemoryAreExitThree() throws Exception {
        if (!"root".equals(System.getProperty("user.name"))) {
            final String why = "this test mounts a small /dev/shm in its own mount namespace and needs root";
            System.out.println("!!! SKIPPED, NOT PASSED: " + why);
            org.junit.jupiter.api.Assumptions.abort("SKIPPED, NOT PASSED: " + why);
        }
        final Path results = dir.resolve("shm");
        final Path spec = dir.resolve("shm.yaml");
        Files.writeString(spec, """
                job: {name: shm, output_dir: %s}
                resources: {nodes: 1, tasks_per_node: 2}
                benchmark:
                  tasks: [2]
                  backends: [tcp]
                  collectives: [all_reduce]
                  sizes: {min: 1KiB, max: 4MiB, factor: 4}
                  dtypes: [float32]
                  warmup: 1
                  iters: 2
                  jit_warmup: 0
                """.formatted(results), StandardCharsets.UTF_8);
        final List<String> cmd = new ArrayList<>(List.of("unshare", "-m", "sh", "-c",
                "mount -t tmpfs -o size=2m tmpfs /dev/shm && exec \"$@\"", "sh"));
        cmd.addAll(cctk("run", spec.toString()));
        final Path log = dir.resolve("shm.log");
        final Process run = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        final boolean ended = run.waitFor(120, TimeUnit.SECONDS);
        run.destroyForcibly();
        final String out = Files.readString(log);
        assertThat(results).as(out).isDirectory();
        // a skipped row has no time and its reason in the skipped column
        final List<Map<String, String>> csv = CsvRows.inDirectory(results);
        final long measured = csv.stream().filter(r -> !r.get("time_us").isEmpty()).count();
        TALLY.record("/dev/shm too small for the larger sizes", !ended ? Outcome.HANG : run.exitValue() != 3
                ? Outcome.WRONG_EXIT_CODE : measured == 0 ? Outcome.ROWS_LOST : Outcome.CLEAR_ERROR);
        assertThat(ended).as(out).isTrue();
        assertThat(run.exitValue()).as(out).isEqualTo(3);
        assertThat(out).contains("rows were skipped because their buffers did not fit")
                .contains("of shared memory in /dev/shm").doesNotContain("\tat ");
        assertThat(measured).as("the rows that fit are kept: %s", csv).isGreaterThanOrEqualTo(8);
        assertThat(csv).anySatisfy(r -> assertThat(r.get("skipped")).contains("of shared memory in /dev/shm"));
    }

    /** The text part file, once the CSV part file holds a few rows. */
    private static Path awaitRows(final Process launcher, final Path results, final Path log) throws Exception {
        final long end = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < end) {
            if (Files.isDirectory(results)) {
                try (var files = Files.list(results)) {
                    final Path csv = files.filter(f -> f.toString().endsWith(".csv.part")).findFirst().orElse(null);
                    if (csv != null && Files.readAllLines(csv).size() > 4) {
                        return csv.resolveSibling(csv.getFileName().toString().replace(".csv.", ".txt."));
                    }
                }
            }
            assertThat(launcher.isAlive()).as("the run ended early:%n%s", Files.readString(log)).isTrue();
            Thread.sleep(100);
        }
        throw new AssertionError("no rows within 90 s:\n" + Files.readString(log));
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
