package cctk.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.CsvRows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gloo backend under Slurm on the two-node, two-NIC test cluster: backends [tcp, gloo] in one job, 2 nodes x 2
 * tasks, the spec naming eth1 only: Gloo's device is eth1, every gloo row is checked, and eth1 carries the data.
 */
@Tag("slurm")
@Timeout(480)
class TwoNodeGlooIT {

    private static final List<String> NODES = List.of("node1", "node2");
    private static final long DATA = 4L << 20;

    @TempDir
    Path dir;

    @BeforeAll
    static void twoNodesAndTheModule() {
        final Path module = LocalCluster.ROOT.resolve("target/gloo/cctk-gloo.jar");
        if (!Files.isRegularFile(module)) {
            final String why = "the gloo module is not built (" + module + "; mvn package without "
                    + "-Dcctk.gloo.skip=true builds it)";
            System.out.println("!!! SKIPPED, NOT PASSED: " + why);
            org.junit.jupiter.api.Assumptions.abort("SKIPPED, NOT PASSED: " + why);
        }
        LocalCluster.ensure("netns");
    }

    @Test
    void tcpAndGlooOnTwoNodesGlooOnTheNamedNic() throws Exception {
        final Path spec = LocalCluster.spec(dir, "it-gloo", "configs/two-nic-2node.yaml", """
                job:
                  name: it-gloo
                  output_dir: %s
                resources:
                  nics: [eth1]
                benchmark:
                  backends: [tcp, gloo]
                  collectives: [all_reduce, all_gather, broadcast, alltoall, sendrecv]
                  sizes: [64KiB, 1MiB]
                  timeout: 60s
                """.formatted(dir.resolve("results")));
        final Map<String, Long> start = new LinkedHashMap<>();
        for (final String node : NODES) {
            for (final String nic : List.of("eth0", "eth1")) {
                start.put(node + "/" + nic, LocalCluster.txBytes(node, nic));
            }
        }
        final LocalCluster.Submitted s = LocalCluster.submitWait(Map.of(), Duration.ofSeconds(300), spec.toString());
        final String line = LocalCluster.finalLine(s.jobId());
        assertThat(s.run().code()).as(s.run().out()).isZero();
        assertThat(LocalCluster.field(line, "JobState")).isEqualTo("COMPLETED");
        final Path out = s.outputDir();
        final List<Map<String, String>> gloo;
        final String header;
        try (Stream<Path> files = Files.list(out)) {
            final List<Path> mine = files.filter(p -> p.getFileName().toString().startsWith("profile_gloo_world4_"))
                    .sorted().toList();
            gloo = CsvRows.of(mine.stream().filter(p -> p.toString().endsWith(".csv")).findFirst().orElseThrow());
            header = Files.readString(mine.stream().filter(p -> p.toString().endsWith(".txt")).findFirst()
                    .orElseThrow());
        }
        assertThat(gloo).hasSize(2 * 5 * 2);
        for (final Map<String, String> r : gloo) {
            assertThat(r.get("time_us")).as(CsvRows.show(r)).isNotEmpty();
            assertThat(r.get("wrong")).as(CsvRows.show(r)).isEqualTo("0");
        }
        assertThat(header).contains("# Rank 3 rank 3 host node2").contains("gloo over tcp on eth1")
                .containsPattern("PyTorch 2\\.\\d+\\.\\d+ c10d ProcessGroupGloo")
                .contains("# env MALLOC_MMAP_THRESHOLD_=33554432").contains("# env MALLOC_TOP_PAD_=67108864");
        for (final String node : NODES) {
            final long eth0 = LocalCluster.txBytes(node, "eth0") - start.get(node + "/eth0");
            final long eth1 = LocalCluster.txBytes(node, "eth1") - start.get(node + "/eth1");
            assertThat(eth1).as("%s: eth1 carries tcp's and gloo's data (eth0 %d)", node, eth0).isGreaterThan(DATA);
            assertThat(eth0).as("%s: eth0 only control traffic (eth1 %d)", node, eth1).isLessThan(eth1 / 20);
        }
    }
}
