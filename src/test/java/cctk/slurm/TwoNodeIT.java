package cctk.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two nodes with two NICs each (scripts/slurm-local.sh start netns: node1, node2, eth0 10.10.1.N, eth1 10.10.2.N):
 * 2 nodes × 2 tasks meet at node1 from the node list, and the tcp backend's bytes go over exactly the NICs the
 * spec names, read from each interface's counters inside each node's namespace before and after the job.
 */
@Tag("slurm")
@Timeout(480)
class TwoNodeIT {

    private static final List<String> NODES = List.of("node1", "node2");
    private static final Duration JOB_LIMIT = Duration.ofSeconds(240);
    /** Bytes a NIC must carry to count as carrying the data path (the sweeps move tens of MB per NIC). */
    private static final long DATA = 4L << 20;

    @TempDir
    Path dir;

    @BeforeAll
    static void twoNodesTwoNics() {
        LocalCluster.ensure("netns");
    }

    private static Map<String, Long> counters() {
        final Map<String, Long> m = new LinkedHashMap<>();
        for (final String node : NODES) {
            for (final String nic : List.of("eth0", "eth1")) {
                m.put(node + "/" + nic, LocalCluster.txBytes(node, nic));
            }
        }
        return m;
    }

    private static Map<String, Long> sent(final Map<String, Long> before) {
        final Map<String, Long> after = counters();
        final Map<String, Long> delta = new LinkedHashMap<>();
        after.forEach((k, v) -> delta.put(k, v - before.get(k)));
        System.out.println("tx bytes per NIC during the job: " + delta);
        return delta;
    }

    @Test
    void theShippedTwoNicSpecRunsOnBothNodesAndStripesOverBothNics() throws Exception {
        final Path out = LocalCluster.ROOT.resolve("results/two-nic-2node");
        final Set<String> before = LocalCluster.files(out);
        final Map<String, Long> start = counters();
        final LocalCluster.Submitted s = LocalCluster.submitWait(Map.of(), JOB_LIMIT, "configs/two-nic-2node.yaml");
        final Map<String, Long> delta = sent(start);
        final String line = LocalCluster.finalLine(s.jobId());
        assertThat(s.run().code()).as(s.run().out()).isZero();
        assertThat(LocalCluster.field(line, "JobState")).isEqualTo("COMPLETED");
        assertThat(LocalCluster.field(line, "NodeList")).isEqualTo("node[1-2]");
        assertThat(LocalCluster.field(line, "NumNodes")).isEqualTo("2");
        assertThat(LocalCluster.field(line, "NumTasks")).isEqualTo("4");

        final String job = Files.readString(s.jobOutput());
        // the store is rank 0's, found from the node list (node1 = 10.10.1.1), never loopback
        assertThat(job).containsPattern("rank 0/4 local 0 node 0 \\(node1\\) job " + s.jobId()
                + "\\.0 rendezvous node1:[0-9]+ via slurm").doesNotContain("127.0.0.1");
        final Set<String> made = LocalCluster.newProfiles(out, before);
        assertThat(made).hasSize(3);
        final String profile = Files.readString(out.resolve(made.stream().filter(f -> f.endsWith(".txt"))
                .findFirst().orElseThrow()));
        assertThat(profile).contains("# Rank 0 rank 0 host node1", "# Rank 1 rank 1 host node1",
                "# Rank 2 rank 2 host node2", "# Rank 3 rank 3 host node2", "# Out of bounds values : 0 OK")
                .containsPattern("# Rank 3 rank 3 host node2 pid [0-9]+ local 1 node 1 device cpu"
                        + " nic eth0,eth1,lo \\(spec: eth0,eth1\\)");

        for (final String node : NODES) {
            final long eth0 = delta.get(node + "/eth0");
            final long eth1 = delta.get(node + "/eth1");
            assertThat(Math.min(eth0, eth1)).as("%s: both NICs carry the data path: %s", node, delta)
                    .isGreaterThan(DATA);
            assertThat((double) Math.min(eth0, eth1) / Math.max(eth0, eth1))
                    .as("%s: each NIC carries a fair share: %s", node, delta).isGreaterThan(0.6);
        }
    }

    @Test
    void withOnlyEth1NamedOnlyEth1CarriesTheData() throws Exception {
        final Path spec = LocalCluster.spec(dir, "it-eth1-only", "configs/two-nic-2node.yaml", """
                job:
                  name: it-eth1-only
                  output_dir: %s
                resources:
                  nics: [eth1]
                benchmark:
                  collectives: [all_reduce, all_gather, alltoall]
                  sizes: [1MiB]
                  timeout: 30s
                """.formatted(dir.resolve("results")));
        final Map<String, Long> start = counters();
        final LocalCluster.Submitted s = LocalCluster.submitWait(Map.of(), JOB_LIMIT, spec.toString());
        final Map<String, Long> delta = sent(start);
        final String line = LocalCluster.finalLine(s.jobId());
        assertThat(s.run().code()).as(s.run().out()).isZero();
        assertThat(LocalCluster.field(line, "JobState")).isEqualTo("COMPLETED");
        assertThat(LocalCluster.newProfiles(s.outputDir(), Set.of())).hasSize(3);
        for (final String node : NODES) {
            final long eth0 = delta.get(node + "/eth0");
            final long eth1 = delta.get(node + "/eth1");
            assertThat(eth1).as("%s: eth1 carries the data path: %s", node, delta).isGreaterThan(DATA);
            // eth0 still carries Slurm's and the rendezvous store's few kB
            assertThat(eth0).as("%s: eth0 carries only control traffic: %s", node, delta).isLessThan(eth1 / 20);
        }
    }

    @Test
    void aNicTheNodesDoNotHaveFailsTheJobNamingNodeAndInterface() throws Exception {
        final Path spec = LocalCluster.spec(dir, "it-no-such-nic", "configs/two-nic-2node.yaml", """
                job:
                  name: it-no-such-nic
                  output_dir: %s
                resources:
                  nics: [eth0, eth7]
                benchmark:
                  sizes: [4KiB]
                  timeout: 30s
                """.formatted(dir.resolve("results")));
        final LocalCluster.Submitted s = LocalCluster.submitWait(Map.of(), JOB_LIMIT, spec.toString());
        final String line = LocalCluster.finalLine(s.jobId());
        assertThat(s.run().code()).as(s.run().out()).isEqualTo(1);
        assertThat(s.run().out()).contains("job " + s.jobId() + " FAILED");
        assertThat(LocalCluster.field(line, "JobState")).isEqualTo("FAILED");
        final String job = Files.readString(s.jobOutput());
        for (final String node : NODES) {
            assertThat(job).contains("host " + node + " has no network interface 'eth7'");
        }
    }
}
