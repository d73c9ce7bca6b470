package cctk.diagnose.probe;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.ExitCode;
import cctk.Json;
import cctk.comm.MemoryStore;
import cctk.diagnose.Settings;
import cctk.spec.Diagnose;
import cctk.spec.MessageSize;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole diagnosis with its ranks as threads of this JVM: 5 simulated nodes (ranks 0-1 on sim1, 2-3 on sim2, ...,
 * rank 8 alone on sim5) over real loopback sockets and an in-memory store. Checks the structure, not the speeds:
 * every pair measured once per mode under a key of its own, every node's ranks measured among themselves, the files
 * written owner-only with every row.
 */
@Timeout(180)
class DiagnoseRankTest {

    private static final byte[] SECRET = "diagnose-test".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @Test
    void fiveNodesTwoModesEveryPairOnceAndTheFiles() throws Exception {
        final int world = 9;
        final Settings settings = new Settings(new Diagnose(new MessageSize(64 << 10, false), 1, 3, 0.8, true, 5, 20),
                List.of("lo", "lo"), List.of("lo", "striped"), dir, "unit");
        final MemoryStore store = new MemoryStore(world, Duration.ofSeconds(60));
        final StringWriter text = new StringWriter();
        final ExecutorService pool = Executors.newFixedThreadPool(world);
        final List<Future<ExitCode>> codes = new ArrayList<>();
        try {
            for (int r = 0; r < world; r++) {
                final int rank = r;
                final PrintWriter out = rank == 0 ? new PrintWriter(text, true) : new PrintWriter(new StringWriter());
                codes.add(pool.submit(() -> new DiagnoseRank(cctk.Environment.empty(), out, out).run(settings, rank,
                        world, "sim" + (rank / 2 + 1), store,
                        new GroupLinks(store, SECRET, Duration.ofSeconds(60), false, line -> { }))));
            }
            for (int r = 0; r < world; r++) {
                final ExitCode code = codes.get(r).get(150, TimeUnit.SECONDS);
                assertThat(code).as("rank %d", r).isIn(ExitCode.OK, ExitCode.FAILED, ExitCode.INCONCLUSIVE);
                if (r > 0) {
                    assertThat(code).isEqualTo(ExitCode.OK);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.println(text);
        final List<String> keys = new ArrayList<>(store.everSet()); // the mesh drops its endpoints once connected
        for (int a = 0; a < 5; a++) {
            for (int b = a + 1; b < 5; b++) {
                for (int m = 0; m < 2; m++) {
                    assertThat(keys).contains("dg/p/" + m + "/" + a + "-" + b + "/tcp/endpoints/0",
                            "dg/p/" + m + "/" + a + "-" + b + "/tcp/endpoints/1");
                }
            }
        }
        assertThat(keys.stream().filter(k -> k.matches("dg/p/.*/endpoints/0"))).hasSize(10 * 2);
        assertThat(keys.stream().filter(k -> k.matches("dg/n/[0-9]+/tcp/endpoints/[0-9]+"))).hasSize(8);
        // the five simulated nodes share this kernel, so their per-node passes take turns
        assertThat(text.toString()).contains("cctk diagnose: 5 node(s), 9 rank(s)", "5 round(s) of 2 pair(s) on lo,"
                + " striped", "in 5 turns (nodes that run on one kernel share its cores)").containsPattern("verdict: (no suspect|[0-9]+ suspect)");

        final Path json = only(".json");
        final Map<?, ?> doc = (Map<?, ?>) Json.parse(Files.readString(json));
        assertThat(doc.get("kind")).isEqualTo("cctk-diagnosis");
        assertThat(doc.get("nodes")).isEqualTo(List.of("sim1", "sim2", "sim3", "sim4", "sim5"));
        final List<String> pairs = Files.readAllLines(only("_pairs.csv"));
        assertThat(pairs).hasSize(1 + 10 * 2);
        for (final String row : pairs.subList(1, pairs.size())) {
            final String[] f = row.split(",", -1);
            assertThat(Double.parseDouble(f[3])).as(row).isPositive();
            assertThat(Double.parseDouble(f[4])).as(row).isPositive();
        }
        final List<String> nodes = Files.readAllLines(only("_nodes.csv"));
        assertThat(nodes).filteredOn(l -> l.startsWith("sim1,intra-node")).hasSize(2)
                .allSatisfy(l -> assertThat(l.split(",")[2]).isNotEmpty());
        assertThat(nodes).filteredOn(l -> l.startsWith("sim5,intra-node"))
                .allSatisfy(l -> assertThat(l.split(",", -1)[2]).as("a node of one rank").isEmpty());
        // every rank's compute rate in both passes; arrival skew only where a node has two ranks or more
        final List<String> ranks = Files.readAllLines(only("_ranks.csv"));
        assertThat(ranks).hasSize(1 + 9 * 2);
        assertThat(ranks.subList(1, ranks.size())).allSatisfy(l -> assertThat(Double.parseDouble(l.split(",")[8]))
                .as(l).isPositive());
        assertThat(ranks).filteredOn(l -> l.startsWith("8,sim5,")).hasSize(2)
                .allSatisfy(l -> assertThat(l.split(",", -1)[5]).as("rank 8 alone has no skew").isEmpty());
        for (final Path p : Files.list(dir).toList()) {
            if (Files.isDirectory(p)) { // the page, written by the diagnosis beside its record
                assertThat(p.resolve("diagnosis.html")).isRegularFile();
                assertThat(json.getFileName().toString()).isEqualTo(p.getFileName() + ".json");
                assertThat(text.toString()).contains("cctk diagnose: page " + p.resolve("diagnosis.html"));
            }
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p)))
                    .isEqualTo(Files.isDirectory(p) ? "rwx------" : "rw-------");
            assertThat(p.getFileName().toString()).doesNotEndWith(".part");
        }
        assertThat(Files.list(dir).filter(Files::isDirectory)).as("one page").hasSize(1);
    }

    private Path only(final String suffix) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            final List<Path> l = s.filter(p -> suffix.equals(".json")
                    ? p.getFileName().toString().matches("diagnose_[0-9-]+\\.json")
                    : p.getFileName().toString().endsWith(suffix)).toList();
            assertThat(l).as("%s in %s", suffix, dir).hasSize(1);
            return l.get(0);
        }
    }
}
