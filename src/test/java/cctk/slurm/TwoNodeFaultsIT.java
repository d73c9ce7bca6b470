package cctk.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.AdversarialTally;
import cctk.comm.shm.SegmentsOnDisk;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
 * <p>
 * 2 nodes x 2 tasks run the CPU backend hierarchically: shared memory inside a node, TCP between the leaders (ranks
 * 0 and 2). So the faults hit ranks whose peers wait on them in shared memory: rank 1 (rank 0's node mate), rank 2
 * (the other node's leader) and rank 3 (whose death or stall only rank 2 sees directly; ranks 0 and 1 learn of it
 * through the leaders), and one node of 4 ranks runs shared memory alone. After every job no segment its ranks made
 * is left in /dev/shm (the netns nodes share it), and a segment that a killed process left is removed by the next
 * job. Kill and freeze also time how long the surviving ranks took to end.
 */
@Tag("slurm")
@Timeout(600)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoNodeFaultsIT {

    /** The per-wait deadline of the fault spec: the surviving ranks must be out well within it. */
    private static final int DEADLINE_S = 20;

    private static final AdversarialTally FAULTS = new AdversarialTally("Slurm faults");
    private static final Pattern RANK_PID = Pattern.compile("rank ([0-9]+) host \\S+ pid ([0-9]+)");

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
        final Set<Path> segments = segments();
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
        final String txt = Files.readString(s.outputDir().resolve(pick(made, ".txt")));
        assertThat(txt).containsPattern("# Incomplete: rank 1 died .*during all_reduce float32 sum 65536 B");
        noSegmentLeft("rank 1 halts", segments, pids(txt).values());
        FAULTS.record("rank 1 halts (CCTK_FAULT_KILL)", AdversarialTally.Outcome.HANDLED);
    }

    /** A spec that keeps 4 ranks on two nodes, both NICs, busy far longer than any test waits. */
    private Path busy(final String name, final String timeLimit, final int deadlineS) throws IOException {
        return busy(name, timeLimit, deadlineS, 2);
    }

    /** As {@link #busy(String, String, int)}, the 4 ranks on {@code nodes} nodes (1: shared memory alone). */
    private Path busy(final String name, final String timeLimit, final int deadlineS, final int nodes)
            throws IOException {
        return LocalCluster.spec(dir, name, "configs/two-nic-2node.yaml", """
                job:
                  name: %s
                  time_limit: "%s"
                  output_dir: %s
                resources:
                  nodes: %d
                  tasks_per_node: %d
                benchmark:
                  collectives: [all_reduce]
                  sizes: {min: 4KiB, max: 64MiB, factor: 2}
                  warmup: 1
                  iters: 400
                  jit_warmup: 0
                  timeout: %ds
                """.formatted(name, timeLimit, dir.resolve("results-" + name), nodes, 4 / nodes, deadlineS));
    }

    /**
     * A job under {@code cctk submit --wait}, followed until its rank 0 has written {@code rows} rows;
     * {@code segments}: the cctk segments in /dev/shm before it was submitted.
     */
    private record Busy(Process submit, Path log, String jobId, Path results, List<String> rowsBefore,
                        Set<Path> segments) {

        /** Waits for cctk submit --wait to end; returns its output. */
        String end(final Duration limit) throws Exception {
            assertThat(submit.waitFor(limit.toSeconds(), TimeUnit.SECONDS)).as("cctk submit --wait ends").isTrue();
            return Files.readString(log);
        }

        long pid(final int rank) throws IOException {
            final Long pid = pids().get(rank);
            assertThat(pid).as("rank %d's pid in the header", rank).isNotNull();
            return pid;
        }

        /** Every rank's pid, from the header of rank 0's text file. */
        Map<Integer, Long> pids() throws IOException {
            return TwoNodeFaultsIT.pids(Files.readString(only(results, ".txt.part")));
        }
    }

    private Busy start(final Path spec, final int rows) throws Exception {
        final Set<Path> segments = segments();
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
                return new Busy(submit, log, jobId, results, Files.readAllLines(csv), segments);
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
        noSegmentLeft(fault, b.segments(), pids(Files.readString(txt)).values());
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
        // rank 1 shares node1 with rank 0, which waits on it in shared memory
        assertThat(killed("it-kill9", 2, 1))
                // " over NIC" when a peer's diagnosis names the link; the store's notice that rank 1 left can
                // reach the others first, and then the line names the rank and the point only
                .matches("rank 1 died \\(its connections closed\\) during all_reduce float32 sum [0-9]+ B"
                        + "( over (lo|eth[01]).*)?");
    }

    @Test
    @Order(5)
    void aFrozenRankIsNamedAsStalled() throws Exception {
        // rank 2, node2's leader: rank 0 waits on it over TCP, rank 3 in shared memory
        assertThat(frozen("it-freeze", 2, 2))
                .matches("rank 2 stalled \\(ranks? [0-9, ]+ waited 8.0 s for it\\) during all_reduce float32 sum"
                        + " [0-9]+ B over (lo|eth[01]).*");
    }

    @Test
    @Order(7)
    void aRankOfTheOtherNodeKilledWithSigkillIsNamedAsDead() throws Exception {
        // only rank 2 sees rank 3 die (in shared memory); ranks 0 and 1 only lose rank 2, which ends after it
        assertThat(killed("it-kill9-remote", 2, 3))
                .matches("rank 3 died \\(its connections closed\\) during all_reduce float32 sum [0-9]+ B.*");
    }

    @Test
    @Order(8)
    void aFrozenRankOfTheOtherNodeIsNamedAsStalled() throws Exception {
        // rank 2 waits on rank 3 in shared memory; rank 0 waits on rank 2, which waits on rank 3
        assertThat(frozen("it-freeze-remote", 2, 3))
                .matches("rank 3 stalled \\(ranks? [0-9, ]+ waited 8.0 s for it\\) during all_reduce float32 sum"
                        + " [0-9]+ B.*");
    }

    @Test
    @Order(9)
    void onOneNodeARankKilledWithSigkillIsNamedAsDead() throws Exception {
        // 4 ranks on node1 run shared memory alone
        assertThat(killed("it-kill9-shm", 1, 2))
                .matches("rank 2 died \\(its connections closed\\) during all_reduce float32 sum [0-9]+ B");
    }

    @Test
    @Order(10)
    void onOneNodeAFrozenRankIsNamedAsStalled() throws Exception {
        assertThat(frozen("it-freeze-shm", 1, 1))
                .matches("rank 1 stalled \\(ranks? [0-9, ]+ waited 8.0 s for it\\) during all_reduce float32 sum"
                        + " [0-9]+ B");
    }

    /**
     * kill -9 of {@code rank} of a busy job on {@code nodes} nodes: the others end well within the deadline, exit
     * code 3; returns the Incomplete line.
     */
    private String killed(final String name, final int nodes, final int rank) throws Exception {
        final Busy b = start(busy(name, "00:05:00", DEADLINE_S, nodes), 3);
        try {
            final Map<Integer, Long> pids = b.pids();
            final long t0 = System.nanoTime();
            LocalCluster.run(Duration.ofSeconds(10), "kill", "-KILL", Long.toString(pids.get(rank)));
            final Duration took = survivorsEnd(pids, rank, t0, Duration.ofSeconds(DEADLINE_S + 30));
            final String out = b.end(Duration.ofSeconds(120));
            final String line = finalFiles(b, "kill -9 of rank " + rank + " (" + nodes + " node(s))", 3, out);
            System.out.printf("kill -9 of rank %d on %d node(s): the other ranks ended %d ms later (deadline %d s)%n",
                    rank, nodes, took.toMillis(), DEADLINE_S);
            assertThat(took).as("the others end well within the %d s deadline", DEADLINE_S)
                    .isLessThan(Duration.ofSeconds(DEADLINE_S));
            return line;
        } finally {
            b.submit().destroyForcibly();
        }
    }

    /**
     * SIGSTOP of {@code rank} of a busy job on {@code nodes} nodes with an 8 s deadline: the others end once it has
     * passed, exit code 3; the frozen rank is woken (SIGCONT) afterwards. Returns the Incomplete line.
     */
    private String frozen(final String name, final int nodes, final int rank) throws Exception {
        final int deadline = 8;
        final Busy b = start(busy(name, "00:05:00", deadline, nodes), 3);
        final Map<Integer, Long> pids = b.pids();
        try {
            final long t0 = System.nanoTime();
            LocalCluster.run(Duration.ofSeconds(10), "kill", "-STOP", Long.toString(pids.get(rank)));
            final Duration took = survivorsEnd(pids, rank, t0, Duration.ofSeconds(deadline + 60));
            final String out = b.end(Duration.ofSeconds(120));
            final String line = finalFiles(b, "SIGSTOP of rank " + rank + " (" + nodes + " node(s))", 3, out);
            System.out.printf("SIGSTOP of rank %d on %d node(s): the other ranks ended %d ms later (deadline %d s)%n",
                    rank, nodes, took.toMillis(), deadline);
            // a stall is a stall only once the deadline has passed; then the diagnoses take up to 2 s
            assertThat(took).as("the others end after the %d s deadline, soon after it", deadline)
                    .isBetween(Duration.ofSeconds(deadline), Duration.ofSeconds(deadline + 10));
            return line;
        } finally {
            LocalCluster.run(Duration.ofSeconds(10), "kill", "-CONT", Long.toString(pids.get(rank)));
            b.submit().destroyForcibly();
        }
    }

    /** Waits until every rank of {@code pids} but {@code fault} has ended; how long after {@code t0} that was. */
    private static Duration survivorsEnd(final Map<Integer, Long> pids, final int fault, final long t0,
                                         final Duration limit) throws InterruptedException {
        final List<ProcessHandle> others = new ArrayList<>();
        pids.forEach((r, pid) -> {
            if (r != fault) {
                ProcessHandle.of(pid).ifPresent(others::add);
            }
        });
        final long until = t0 + limit.toNanos();
        while (others.stream().anyMatch(ProcessHandle::isAlive)) {
            assertThat(System.nanoTime() - until).as("ranks %s still run %s after the fault", others, limit)
                    .isNegative();
            Thread.sleep(50);
        }
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    @Test
    @Order(11)
    void aSegmentAKilledProcessLeftIsRemovedByTheNextJobAndALiveOnesIsNot() throws Exception {
        // what a rank killed before its peers mapped its buffer leaves: a segment whose creator no longer runs
        final Process gone = new ProcessBuilder("sleep", "600").start();
        final long start = SegmentsOnDisk.startTime(gone.pid());
        assertThat(start).isPositive();
        gone.destroyForcibly();
        assertThat(gone.waitFor(10, TimeUnit.SECONDS)).isTrue();
        final Path stale = SegmentsOnDisk.leave(SegmentsOnDisk.DEFAULT, gone.pid(), start);
        // and one of a process that still runs (this JVM): another job's, which must be left alone
        final long self = ProcessHandle.current().pid();
        final Path live = SegmentsOnDisk.leave(SegmentsOnDisk.DEFAULT, self, SegmentsOnDisk.startTime(self));
        try {
            final Path spec = LocalCluster.spec(dir, "it-stale", "configs/two-nic-2node.yaml", """
                    job:
                      name: it-stale
                      output_dir: %s
                    benchmark:
                      collectives: [all_reduce]
                      sizes: [4KiB]
                      jit_warmup: 0
                      timeout: 30s
                    """.formatted(dir.resolve("results")));
            final LocalCluster.Submitted s = LocalCluster.submitWait(Map.of(), Duration.ofSeconds(180),
                    spec.toString());
            assertThat(s.run().code()).as(s.run().out()).isZero();
            assertThat(Files.exists(stale)).as("the dead process's segment %s after the next job", stale).isFalse();
            assertThat(Files.exists(live)).as("the running process's segment %s after the job", live).isTrue();
            FAULTS.record("a segment left by a killed process", AdversarialTally.Outcome.HANDLED);
        } finally {
            Files.deleteIfExists(stale);
            Files.deleteIfExists(live);
        }
    }

    /** The cctk segments in /dev/shm now. */
    private static Set<Path> segments() throws IOException {
        final Set<Path> now = new HashSet<>();
        SegmentsOnDisk.in(SegmentsOnDisk.DEFAULT).forEach(g -> now.add(g.path()));
        return now;
    }

    /**
     * After a job whose ranks were {@code pids}: no segment that one of them made (or one whose maker cannot be
     * read, which appeared since {@code before}) is left in /dev/shm.
     */
    private static void noSegmentLeft(final String fault, final Set<Path> before, final Collection<Long> pids)
            throws IOException {
        assertThat(pids).as("the ranks' pids").hasSize(4);
        final List<SegmentsOnDisk.Segment> left = new ArrayList<>();
        for (final SegmentsOnDisk.Segment g : SegmentsOnDisk.in(SegmentsOnDisk.DEFAULT)) {
            if (pids.contains(g.pid()) || g.pid() < 0 && !before.contains(g.path())) {
                left.add(g);
            }
        }
        System.out.println("fault " + fault + ": segments of the job's ranks " + pids + " left in "
                + SegmentsOnDisk.DEFAULT + ": " + left);
        assertThat(left).as("%s: segments the job's ranks left", fault).isEmpty();
    }

    /** Rank to pid, from a result text's {@code # Rank} lines. */
    static Map<Integer, Long> pids(final String text) {
        final Map<Integer, Long> m = new TreeMap<>();
        final Matcher r = RANK_PID.matcher(text);
        while (r.find()) {
            m.put(Integer.parseInt(r.group(1)), Long.parseLong(r.group(2)));
        }
        return m;
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
