package cctk.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.rank.RankConfiguration;
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
 * and a job over its time limit (Slurm checks limits about every 30 s, so that one takes 60-100 s).
 */
@Tag("slurm")
@Timeout(600)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoNodeFaultsIT {

    /** The per-wait deadline of the fault spec: the surviving ranks must be out well within it. */
    private static final int DEADLINE_S = 20;

    @TempDir
    Path dir;

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
                Map.of(RankConfiguration.CCTK_FAULT_KILL_PROP, "1:1"), Duration.ofSeconds(180), spec.toString());
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
                .containsPattern("# Incomplete: .*rank 1");
    }

    /** A spec that keeps 2 ranks busy far longer than any test waits. */
    private Path endless(final String name, final String timeLimit) throws IOException {
        return LocalCluster.spec(dir, name, "configs/two-nic-2node.yaml", """
                job:
                  name: %s
                  time_limit: "%s"
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
                  timeout: 60s
                """.formatted(name, timeLimit, dir.resolve("results-" + name)));
    }

    @Test
    @Order(2)
    void scancelOfARunningJobIsReportedCancelled() throws Exception {
        final Path spec = endless("it-cancelled", "00:05:00");
        final Path log = dir.resolve("submit.log");
        final List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", System.getProperty("cctk.jar", "target/cctk.jar"), "submit", spec.toString(),
                "--wait"));
        final Process submit = new ProcessBuilder(argv).directory(LocalCluster.ROOT.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            final String jobId = waitFor(log, Pattern.compile("job ([0-9]+) RUNNING"), Duration.ofSeconds(90),
                    submit);
            final Path jobOut = Path.of(waitFor(log, Pattern.compile("manifest (\\S+)"), Duration.ofSeconds(5),
                    submit)).resolveSibling("slurm-" + jobId + ".out");
            waitFor(jobOut, Pattern.compile("(rank 0/2) local"), Duration.ofSeconds(60), submit);
            final LocalCluster.Run cancel = LocalCluster.run(Duration.ofSeconds(30), "scancel", jobId);
            assertThat(cancel.code()).as(cancel.out()).isZero();
            final boolean ended = submit.waitFor(120, TimeUnit.SECONDS);
            assertThat(ended).as("cctk submit --wait returns after scancel").isTrue();
            final String out = Files.readString(log);
            final String line = LocalCluster.finalLine(jobId);
            assertThat(submit.exitValue()).as(out).isEqualTo(1);
            assertThat(out).contains("job " + jobId + " CANCELLED");
            assertThat(LocalCluster.field(line, "JobState")).isEqualTo("CANCELLED");
        } finally {
            submit.destroyForcibly();
        }
    }

    @Test
    @Order(3)
    void aJobOverItsTimeLimitIsReportedTimeout() throws Exception {
        final LocalCluster.Submitted s = LocalCluster.submitWait(Map.of(), Duration.ofSeconds(240),
                endless("it-timeout", "00:01:00").toString());
        final String line = LocalCluster.finalLine(s.jobId());
        assertThat(s.run().code()).as(s.run().out()).isEqualTo(1);
        assertThat(s.run().out()).contains("job " + s.jobId() + " TIMEOUT");
        assertThat(LocalCluster.field(line, "JobState")).isEqualTo("TIMEOUT");
        assertThat(LocalCluster.field(line, "TimeLimit")).isEqualTo("00:01:00");
        assertThat(s.manifest()).contains("\"state\": \"TIMEOUT\"");
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
