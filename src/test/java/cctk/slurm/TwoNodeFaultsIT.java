package cctk.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.AdversarialTally;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults on the real two-node cluster (scripts/slurm-local.sh start netns), each followed by {@code cctk submit
 * --wait}: a rank that dies mid-sweep (the test-only {@code CCTK_FAULT_KILL} switch), scancel of a running job,
 * a job at its time limit (Slurm checks limits about every 30 s, so that one takes up to 2 minutes), kill -9 and
 * SIGSTOP of one rank, and eth1 down on node2. Each asserts the final files keep every row measured before the
 * fault, a true Incomplete line naming the rank or NIC and the collective, and cctk's code as the job's ExitCode.
 */
@Tag("slurm")
@Timeout(600)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoNodeFaultsIT {

    /** The per-wait deadline of the fault spec: the surviving ranks must be out well within it. */
    private static final int DEADLINE_S = 20;

    private static final AdversarialTally FAULTS = new AdversarialTally("Slurm faults");

    @TempDir
    Path dir;

    @AfterAll
    static void tally() {
        FAULTS.report();
    }

    @BeforeAll
    static void twoNodes() {
        LocalCluster.ensure("netns");
    }

    @Test
    @Order(1)
    void aRankDyingMidSweepFailsTheJobAndTheOthersNameIt() throws Exception {
        final Path spec = LocalCluster.spec(dir, "it-rank-dies", "configs/two-nic-2node.yaml", """
                job:
                  name: it-rank-dies
                  output_dir: %s
                benchmark:
                  sizes: [4KiB, 64KiB, 256KiB]
                  timeout: %ds
                """.formatted(dir.resolve("results"), DEADLINE_S));
        final LocalCluster.Submitted s = LocalCluster.submitWait(
                Map.of(cctk.EnvVar.CCTK_FAULT_KILL.name(), "1:1"), Duration.ofSeconds(180), spec.toString());
        final String line = LocalCluster.finalLine(s.jobId());
        assertThat(s.run().code()).as(s.run().out()).isEqualTo(1);
        assertThat(s.run().out()).contains("job " + s.jobId() + " FAILED, exit code ");
        assertThat(LocalCluster.field(line, "JobState")).isEqualTo("FAILED");
        assertThat(s.manifest()).contains("\"state\": \"FAILED\"");

        final String job = Files.readString(s.jobOutput());
        final Matcher halted = Pattern.compile("cctk: rank 1 halts at (\\S+) after measuring 1 size").matcher(job);
        assertThat(halted.find()).as(job).isTrue();
        for (final int rank : new int[] {0, 2, 3}) {
            assertThat(job).as("rank %d names rank 1", rank).containsPattern("cctk: rank " + rank + ": .*rank 1");
        }
        final Instant end = LocalDateTime.parse(LocalCluster.field(line, "EndTime"))
                .atZone(ZoneId.systemDefault()).toInstant();
        assertThat(Duration.between(Instant.parse(halted.group(1)), end))
                .as("from rank 1's death to the job's end").isLessThan(Duration.ofSeconds(DEADLINE_S));

        // the first size was measured by every collective and is in the files; nothing after it
        final Set<String> made = LocalCluster.newProfiles(s.outputDir(), Set.of());
        assertThat(made).as("result files in %s", s.outputDir()).hasSize(3);
        final String csv = Files.readString(s.outputDir().resolve(pick(made, ".csv")));
        for (final String coll : List.of("all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce",
                "alltoall", "sendrecv")) {
            assertThat(csv).as("%s at 4 KiB", coll).containsPattern("(?m)^tcp,4," + coll + ",float32,[a-z]*,[0-9]*,"
                    + "4096,");
        }
        assertThat(csv).doesNotContain(",65536,", ",262144,");
        assertThat(Files.readString(s.outputDir().resolve(pick(made, ".txt"))))
                .containsPattern("# Incomplete: rank 1 died .*during all_reduce float32 sum 65536 B");
        FAULTS.record("rank 1 halts (CCTK_FAULT_KILL)", AdversarialTally.Outcome.HANDLED);
    }

    /** A spec that keeps 4 ranks on two nodes, both NICs, busy far longer than any test waits. */
    private Path busy(final String name, final String timeLimit, final int deadlineS) throws IOException {
        return LocalCluster.spec(dir, name, "configs/two-nic-2node.yaml", """
                job:
                  name: %s
                  time_limit: "%s"
                  output_dir: %s
                benchmark:
                  collectives: [all_reduce]
                  sizes: {min: 4KiB, max: 64MiB, factor: 2}
                  warmup: 1
                  iters: 400
                  timeout: %ds
                """.formatted(name, timeLimit, dir.resolve("results-" + name), deadlineS));
    }

    /** A job under {@code cctk submit --wait}, followed until its rank 0 has written {@code rows} rows. */
    private record Busy(Process submit, Path log, String jobId, Path results, List<String> rowsBefore) {

        /** Waits for cctk submit --wait to end; returns its output. */
        String end(final Duration limit) throws Exception {
            assertThat(submit.waitFor(limit.toSeconds(), TimeUnit.SECONDS)).as("cctk submit --wait ends").isTrue();
            return Files.readString(log);
        }

        long pid(final int rank) throws IOException {
            final Matcher m = Pattern.compile("rank " + rank + " host \\S+ pid ([0-9]+)").matcher(Files.readString(
                    only(results, ".txt.part")));
            assertThat(m.find()).isTrue();
            return Long.parseLong(m.group(1));
        }
    }

    private Busy start(final Path spec, final int rows) throws Exception {
        final Path log = dir.resolve(spec.getFileName() + ".log");
        final List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", System.getProperty("cctk.jar", "target/cctk.jar"), "submit", spec.toString(),
                "--wait"));
        final Process submit = new ProcessBuilder(argv).directory(LocalCluster.ROOT.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        final String jobId = waitFor(log, Pattern.compile("job ([0-9]+) RUNNING"), Duration.ofSeconds(90), submit);
        final Path results = dir.resolve("results-" + spec.getFileName().toString().replace(".yaml", ""));
        final long until = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < until && submit.isAlive()) {
            final Path csv = Files.isDirectory(results) ? only(results, ".csv.part") : null;
            if (csv != null && Files.readAllLines(csv).size() > rows) {
                return new Busy(submit, log, jobId, results, Files.readAllLines(csv));
            }
            Thread.sleep(200);
        }
        throw new AssertionError("job " + jobId + " wrote fewer than " + rows + " rows:\n" + Files.readString(log));
    }

    private static Path only(final Path results, final String suffix) throws IOException {
        try (var s = Files.list(results)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).findFirst().orElse(null);
        }
    }

    /** The final files are there (no part files), keep every row, and say {@code incomplete}; the line. */
    private String finalFiles(final Busy b, final String fault, final int exitCode, final String out)
            throws Exception {
        final String line = LocalCluster.finalLine(b.jobId());
        final Path txt = only(b.results(), ".txt");
        final Path csv = only(b.results(), ".csv");
        final boolean parts = only(b.results(), ".part") != null;
        final boolean kept = csv != null && Files.readAllLines(csv).containsAll(b.rowsBefore());
        final String exit = LocalCluster.field(line, "ExitCode");
        FAULTS.record(fault, txt == null || parts || !kept ? AdversarialTally.Outcome.ROWS_LOST
                : !(exitCode + ":0").equals(exit) ? AdversarialTally.Outcome.WRONG_EXIT_CODE
                : AdversarialTally.Outcome.HANDLED);
        assertThat(parts).as("part files left in %s", b.results()).isFalse();
        assertThat(txt).as("final text file in %s", b.results()).isNotNull();
        assertThat(kept).as("every row measured before the fault is in the final CSV").isTrue();
        assertThat(exit).as("the job's ExitCode is cctk's").isEqualTo(exitCode + ":0");
        assertThat(out).contains("incomplete results in").contains(txt.getFileName().toString());
        final Matcher m = Pattern.compile("(?m)^# Incomplete: (.*)$").matcher(Files.readString(txt));
        assertThat(m.find()).as("Incomplete line").isTrue();
        System.out.println("fault " + fault + ": ExitCode=" + exit + " # Incomplete: " + m.group(1));
        assertThat(Files.readString(only(b.results(), ".json"))).contains("\"status\": \"INCOMPLETE\"");
        return m.group(1);
    }

    @Test
    @Order(2)
    void scancelOfARunningJobKeepsTheRowsAndSaysCancelled() throws Exception {
        final Busy b = start(busy("it-cancelled", "00:05:00", 30), 3);
        try {
            final LocalCluster.Run cancel = LocalCluster.run(Duration.ofSeconds(30), "scancel", b.jobId());
            assertThat(cancel.code()).as(cancel.out()).isZero();
            final String out = b.end(Duration.ofSeconds(120));
            assertThat(b.submit().exitValue()).as(out).isEqualTo(1);
            assertThat(out).contains("job " + b.jobId() + " CANCELLED");
            assertThat(LocalCluster.field(LocalCluster.finalLine(b.jobId()), "JobState")).isEqualTo("CANCELLED");
            assertThat(finalFiles(b, "scancel", 1, out)).startsWith("cancelled: SIGTERM")
                    .contains("during all_reduce float32 sum");
        } finally {
            b.submit().destroyForcibly();
        }
    }

    @Test
    @Order(3)
    void aJobAtItsTimeLimitKeepsTheRowsAndSaysTimeLimit() throws Exception {
        // Slurm may send the warning (12 s before a 2-minute limit) up to 60 s early: rows come well before
        final Busy b = start(busy("it-timeout", "00:02:00", 30), 1);
        try {
            final String out = b.end(Duration.ofSeconds(240));
            final String line = LocalCluster.finalLine(b.jobId());
            assertThat(b.submit().exitValue()).as(out).isEqualTo(1);
            assertThat(LocalCluster.field(line, "TimeLimit")).isEqualTo("00:02:00");
            // the ranks stop at Slurm's warning (FAILED, exit 1) or at the limit's SIGTERM (TIMEOUT)
            assertThat(LocalCluster.field(line, "JobState")).isIn("FAILED", "TIMEOUT");
            assertThat(finalFiles(b, "time limit", 1, out)).startsWith("time limit: ");
        } finally {
            b.submit().destroyForcibly();
        }
    }

    @Test
    @Order(4)
    void aRankKilledWithSigkillIsNamedAsDead() throws Exception {
        final Busy b = start(busy("it-kill9", "00:05:00", DEADLINE_S), 3);
        try {
            final long pid = b.pid(1);
            LocalCluster.run(Duration.ofSeconds(10), "kill", "-KILL", Long.toString(pid));
            final String out = b.end(Duration.ofSeconds(120));
            assertThat(finalFiles(b, "kill -9 of rank 1", 3, out))
                    // " over NIC" when a peer's diagnosis names the link; the store's notice that rank 1 left can
                    // reach the others first, and then the line names the rank and the point only
                    .matches("rank 1 died \\(its connections closed\\) during all_reduce float32 sum [0-9]+ B"
                            + "( over (lo|eth[01]).*)?");
        } finally {
            b.submit().destroyForcibly();
        }
    }

    @Test
    @Order(5)
    void aFrozenRankIsNamedAsStalled() throws Exception {
        final Busy b = start(busy("it-freeze", "00:05:00", 8), 3);
        final long pid = b.pid(2);
        try {
            LocalCluster.run(Duration.ofSeconds(10), "kill", "-STOP", Long.toString(pid));
            final String out = b.end(Duration.ofSeconds(120));
            assertThat(finalFiles(b, "SIGSTOP of rank 2", 3, out))
                    .matches("rank 2 stalled \\(ranks? [0-9, ]+ waited 8.0 s for it\\) during all_reduce float32 sum"
                            + " [0-9]+ B over (lo|eth[01]).*");
        } finally {
            LocalCluster.run(Duration.ofSeconds(10), "kill", "-CONT", Long.toString(pid));
            b.submit().destroyForcibly();
        }
    }

    @Test
    @Order(6)
    void aNicDownOnOneNodeIsNamed() throws Exception {
        final Busy b = start(busy("it-nic", "00:05:00", 8), 3);
        try {
            LocalCluster.run(Duration.ofSeconds(10), "ip", "netns", "exec", "node2", "ip", "link", "set", "eth1",
                    "down");
            final String out = b.end(Duration.ofSeconds(120));
            assertThat(finalFiles(b, "eth1 down on node2", 3, out))
                    .startsWith("NIC eth1 on host node2 went down during all_reduce float32 sum");
        } finally {
            LocalCluster.run(Duration.ofSeconds(10), "ip", "netns", "exec", "node2", "ip", "link", "set", "eth1",
                    "up");
            b.submit().destroyForcibly();
        }
    }

    private static String pick(final Set<String> names, final String suffix) {
        return names.stream().filter(n -> n.endsWith(suffix)).findFirst()
                .orElseThrow(() -> new AssertionError("no *" + suffix + " among " + names));
    }

    /** Polls {@code file} until {@code p} matches while {@code submit} runs; returns group 1. */
    private static String waitFor(final Path file, final Pattern p, final Duration limit, final Process submit)
            throws Exception {
        final long until = System.nanoTime() + limit.toNanos();
        String text = "";
        boolean alive = true;
        while (System.nanoTime() < until && alive) {
            alive = submit.isAlive();
            text = Files.exists(file) ? Files.readString(file) : "";
            final Matcher m = p.matcher(text);
            if (m.find()) {
                return m.group(1);
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no " + p + " in " + file + (alive ? " within " + limit : " before cctk submit"
                + " ended") + ":\n" + text);
    }
}
