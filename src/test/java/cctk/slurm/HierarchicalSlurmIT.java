package cctk.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CPU backend's hierarchical algorithms on the real two-node, two-NIC cluster (scripts/slurm-local.sh start
 * netns: node1, node2 with eth0 10.10.1.N and eth1 10.10.2.N; 2 nodes x 2 tasks): shared memory inside a node, TCP
 * between the nodes' leaders (ranks 0 and 2) striped over both NICs. Every collective is right hierarchically and
 * flat ({@code tcp-flat}), and each rank's header names its transports. The NICs' byte counters, read inside each
 * node's namespace before and after an all-reduce job, show the leaders' share crossing the nodes on both NICs and
 * none of the node's own traffic; the flat run moves half as much again over the NICs, and its intra-node pairs
 * over loopback.
 */
@Tag("slurm")
@Timeout(600)
class HierarchicalSlurmIT {

    private static final List<String> NODES = List.of("node1", "node2");
    private static final List<String> NICS = List.of("eth0", "eth1", "lo");
    private static final Duration JOB_LIMIT = Duration.ofSeconds(300);
    private static final long MIB = 1L << 20;

    @TempDir
    Path dir;

    @BeforeAll
    static void twoNodesTwoNics() {
        LocalCluster.ensureNodes(2);
    }

    @Test
    void everyCollectiveIsRightHierarchicallyAndFlatAndTheHeaderNamesTheTransports() throws Exception {
        final Path out = dir.resolve("results");
        final Path spec = LocalCluster.spec(dir, "it-hier-all", "configs/two-nic-2node.yaml", """
                job:
                  name: it-hier-all
                  output_dir: %s
                benchmark:
                  backends: [tcp, tcp-flat]
                  collectives: all
                  sizes: [4KiB, 256KiB, 4MiB]
                  ops: [sum, avg]
                  warmup: 1
                  iters: 3
                  check_iters: 2
                  jit_warmup: 5s
                  timeout: 60s
                """.formatted(out));
        final LocalCluster.Submitted s = LocalCluster.submitWait(Map.of(), JOB_LIMIT, spec.toString());
        final String line = LocalCluster.finalLine(s.jobId());
        assertThat(s.run().code()).as(s.run().out()).isZero();
        assertThat(LocalCluster.field(line, "JobState")).isEqualTo("COMPLETED");
        assertThat(LocalCluster.field(line, "NodeList")).isEqualTo("node[1-2]");

        final Map<String, Object> hier = json(out, "profile_tcp_world4_");
        final Map<String, Object> flat = json(out, "profile_tcp-flat_world4_");
        for (final Map<String, Object> run : List.of(hier, flat)) {
            assertThat(run.get("status")).as("%s", run.get("backend")).isEqualTo("OK");
            assertThat(((Number) run.get("wrong")).longValue()).as("%s #wrong", run.get("backend")).isZero();
            final Set<String> measured = new TreeSet<>();
            for (final Object o : (List<?>) run.get("rows")) {
                final Map<?, ?> row = (Map<?, ?>) o;
                if (row.get("skipped") != null) {
                    continue;
                }
                measured.add((String) row.get("collective"));
                if ("barrier".equals(row.get("collective"))) {
                    assertThat(row.get("wrong")).as("a barrier carries no data to check").isNull();
                } else {
                    assertThat(row.get("wrong")).as("%s %s checked", run.get("backend"), row).isNotNull();
                    assertThat(((Number) row.get("wrong")).longValue()).as("%s %s", run.get("backend"), row).isZero();
                }
            }
            System.out.println(run.get("backend") + ": " + ((List<?>) run.get("rows")).size() + " rows, measured "
                    + measured);
            assertThat(measured).as("%s: every collective measured and checked", run.get("backend"))
                    .contains("all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce", "alltoall",
                            "alltoallv", "sendrecv", "barrier");
        }

        final Map<Integer, String> h = transports(hier);
        final Map<Integer, String> f = transports(flat);
        h.forEach((r, t) -> System.out.println("tcp rank " + r + ": " + t));
        f.forEach((r, t) -> System.out.println("tcp-flat rank " + r + ": " + t));
        assertThat(h.get(0)).startsWith("node 0 of 2: shm to rank 1 (zero-copy")
                .contains("; tcp over eth0,eth1 to rank 2 (leaders)");
        assertThat(h.get(1)).startsWith("node 0 of 2: shm to rank 0 (zero-copy").doesNotContain("(leaders)");
        assertThat(h.get(2)).startsWith("node 1 of 2: shm to rank 3 (zero-copy")
                .contains("; tcp over eth0,eth1 to rank 0 (leaders)");
        assertThat(h.get(3)).startsWith("node 1 of 2: shm to rank 2 (zero-copy").doesNotContain("(leaders)");
        for (final int r : List.of(0, 1, 2, 3)) {
            // flat: TCP between every pair, the other node's over both NICs, the own node's over loopback
            final int other = r < 2 ? 2 : 0;
            final int mate = r ^ 1;
            assertThat(f.get(r)).as("tcp-flat rank %d", r).doesNotContain("shm")
                    .containsPattern("tcp over eth0,eth1 to ranks? [0-9,-]*\\b" + other + "\\b")
                    .contains("tcp over lo to rank " + mate);
        }
    }

    @Test
    void allReduceCrossesTheNodesOnceOverBothNicsAndTheNodesOwnTrafficStaysOffThem() throws Exception {
        final long size = 16 * MIB;
        final Traffic hierRun = nicBytes("it-hier-bytes", "tcp", size);
        final Traffic flatRun = nicBytes("it-flat-bytes", "tcp-flat", size);
        final Map<String, Long> hier = hierRun.bytes();
        final Map<String, Long> flat = flatRun.bytes();
        // hierarchical: the two leaders run a ring all-reduce, each sends S/2 twice, so each node's NICs carry S per
        // call; the ranks of a node meet in shared memory, so nothing but the store's few kB uses loopback.
        // flat: the ring 0 -> 1 -> 2 -> 3 -> 0 crosses the nodes at 1 -> 2 and 3 -> 0, each sending 2 x 3/4 S per
        // call, and its hops inside a node (0 -> 1, 2 -> 3), as much again, go over loopback.
        final long perNodeHier = hierRun.calls() * size;
        final long perNodeFlat = flatRun.calls() * size * 3 / 2;
        final StringBuilder table = new StringBuilder(String.format("%-12s %14s %14s %14s%n", "tx bytes", "eth0",
                "eth1", "lo"));
        for (final String node : NODES) {
            for (final Map.Entry<String, Map<String, Long>> run : List.of(Map.entry("hierarchical", hier),
                    Map.entry("flat", flat))) {
                final Map<String, Long> m = run.getValue();
                table.append(String.format("%-12s %14d %14d %14d%n", node + " " + run.getKey(), m.get(node + "/eth0"),
                        m.get(node + "/eth1"), m.get(node + "/lo")));
            }
        }
        table.append(String.format("expected per node: hierarchical %d over the NICs (%d calls), flat %d over the NICs"
                + " and %d over lo (%d calls), calls of %d B%n", perNodeHier, hierRun.calls(), perNodeFlat, perNodeFlat,
                flatRun.calls(), size));
        System.out.print(table);
        for (final String node : NODES) {
            final long eth0 = hier.get(node + "/eth0");
            final long eth1 = hier.get(node + "/eth1");
            final long nics = eth0 + eth1;
            // headers and acknowledgements add a few per cent; Slurm, srun's I/O and the store a few kB
            assertThat(nics).as("%s: hierarchical, the leaders' share over the NICs%n%s", node, table)
                    .isBetween(perNodeHier * 98 / 100, perNodeHier * 112 / 100 + 4 * MIB);
            assertThat(Math.min(eth0, eth1)).as("%s: both NICs carry a real part%n%s", node, table)
                    .isGreaterThan(nics / 4);
            assertThat(hier.get(node + "/lo")).as("%s: hierarchical, no rank pair of the node uses TCP%n%s", node,
                    table).isLessThan(4 * MIB);

            final long flatNics = flat.get(node + "/eth0") + flat.get(node + "/eth1");
            assertThat(flatNics).as("%s: flat, two ring hops' share over the NICs, none of the node's own%n%s",
                    node, table).isBetween(perNodeFlat * 98 / 100, perNodeFlat * 112 / 100 + 4 * MIB);
            assertThat(flat.get(node + "/lo")).as("%s: flat, the node's own hop over loopback%n%s", node, table)
                    .isBetween(perNodeFlat * 98 / 100, perNodeFlat * 112 / 100 + 4 * MIB);
            // per call: the runs' loops are sized by time, so the two make different numbers of calls
            assertThat(((double) flatNics / flatRun.calls()) / ((double) nics / hierRun.calls()))
                    .as("%s: flat over hierarchical NIC bytes per call%n%s", node, table).isBetween(1.3, 1.7);
        }
    }

    /** Each node's NICs' tx bytes during a run, and the all-reduce calls the run made. */
    private record Traffic(Map<String, Long> bytes, int calls) {
    }

    /** Runs an all-reduce of {@code size} on {@code backend}; returns each node's NICs' tx bytes meanwhile. */
    private Traffic nicBytes(final String name, final String backend, final long size) throws Exception {
        final Path spec = LocalCluster.spec(dir, name, "configs/two-nic-2node.yaml", """
                job:
                  name: %s
                  output_dir: %s
                benchmark:
                  backends: [%s]
                  collectives: [all_reduce]
                  sizes: [%dMiB]
                  in_place: false
                  warmup: 2
                  iters: 8
                  check_iters: 1
                  jit_warmup: 0
                  timeout: 60s
                """.formatted(name, dir.resolve(name), backend, size / MIB));
        final Map<String, Long> before = counters();
        final LocalCluster.Submitted s = LocalCluster.submitWait(Map.of(), JOB_LIMIT, spec.toString());
        final Map<String, Long> after = counters();
        assertThat(s.run().code()).as(s.run().out()).isZero();
        final Map<String, Object> run = json(s.outputDir(), "profile_" + backend + "_world4_");
        assertThat(((Number) run.get("wrong")).longValue()).isZero();
        assertThat((List<?>) run.get("rows")).hasSize(1);
        final Map<String, Long> delta = new LinkedHashMap<>();
        after.forEach((k, v) -> delta.put(k, v - before.get(k)));
        // per repeat warmup + iters, the check_iters once, one size, out of place only; a loop that a compile or a
        // collection disturbed is timed again, iters calls each time: the row's attempts count every timed loop
        final Map<?, ?> row = (Map<?, ?>) ((List<?>) run.get("rows")).get(0);
        final int repeats = ((Number) row.get("repeats")).intValue();
        final int attempts = ((Number) row.get("attempts")).intValue();
        final int retimed = attempts - repeats;
        final int calls = 2 * repeats + 8 * attempts + 1;
        System.out.println(backend + ": tx bytes during job " + s.jobId() + " (" + calls + " calls, " + retimed
                + " retimed): " + delta);
        return new Traffic(delta, calls);
    }

    private static Map<String, Long> counters() {
        final Map<String, Long> m = new LinkedHashMap<>();
        for (final String node : NODES) {
            for (final String nic : NICS) {
                m.put(node + "/" + nic, LocalCluster.txBytes(node, nic));
            }
        }
        return m;
    }

    /** The one result JSON in {@code dir} whose name starts with {@code prefix}. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(final Path dir, final String prefix) throws IOException {
        final List<String> found = LocalCluster.files(dir).stream()
                .filter(n -> n.startsWith(prefix) && n.endsWith(".json")).toList();
        assertThat(found).as("%s*.json in %s: %s", prefix, dir, LocalCluster.files(dir)).hasSize(1);
        return (Map<String, Object>) Json.parse(Files.readString(dir.resolve(found.get(0))));
    }

    /** Each rank's transports, from the JSON's rank objects. */
    private static Map<Integer, String> transports(final Map<String, Object> run) {
        final Map<Integer, String> t = new LinkedHashMap<>();
        for (final Object o : (List<?>) run.get("ranks")) {
            final Map<?, ?> rank = (Map<?, ?>) o;
            t.put(((Number) rank.get("rank")).intValue(), (String) rank.get("transports"));
        }
        assertThat(t).as("rank objects").hasSize(4);
        return t;
    }
}
