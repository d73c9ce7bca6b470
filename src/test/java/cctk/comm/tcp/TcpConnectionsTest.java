package cctk.comm.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.comm.Tuning;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Connections made on first use: a collective connects only the peers its algorithm uses, rings replace the direct
 * exchanges above {@code Tuning.directMaxRanks}, and a rank of 64 opens exactly the sockets the README's formula
 * gives (counted in /proc/self/fd and by the communicators).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class TcpConnectionsTest {

    @ParameterizedTest
    @ValueSource(ints = {3, 5})
    void ringsAboveTheDirectLimitGiveTheSameResultsAndConnectTwoNeighbours(final int world) throws Exception {
        System.setProperty(Tuning.DIRECT_MAX_RANKS_PROP, "2");
        try {
            final List<List<String>> failures = LocalWorld.run(world, LocalWorld.options(Duration.ofSeconds(30)),
                    comm -> {
                        final List<String> bad = new ArrayList<>();
                        final int before = comm.sockets();
                        for (final DType type : new DType[] {DType.FLOAT32, DType.INT8, DType.BFLOAT16}) {
                            for (final int count : new int[] {1, 5, 1000, 70_001}) {
                                for (final boolean inPlace : new boolean[] {false, true}) {
                                    TcpCollectivesTest.allReduce(comm, type, ReduceOp.SUM, count, inPlace, bad);
                                    TcpDataMovementTest.allGather(comm, type, count, inPlace, bad);
                                }
                            }
                        }
                        if (before != 1 || comm.sockets() != 1 + 2) {
                            bad.add("rank " + comm.rank() + " holds " + before + " then " + comm.sockets()
                                    + " sockets; want 1 listening, then 2 more for its neighbours: "
                                    + comm.transports());
                        }
                        return bad;
                    });
            for (final List<String> f : failures) {
                assertThat(f).isEmpty();
            }
        } finally {
            System.clearProperty(Tuning.DIRECT_MAX_RANKS_PROP);
        }
    }

    @Test
    void aPairConnectsOnlyItselfAndTheHeaderNamesItsPeers() throws Exception {
        final List<String> said = LocalWorld.run(4, LocalWorld.options(Duration.ofSeconds(30)), comm -> {
            final CommBuffer b = comm.allocate(64);
            final String before = comm.transports();
            final int partner = comm.rank() ^ 1;
            comm.sendRecv(b, partner, b.slice(32, 32), partner, 8, DType.INT32);
            return before + " / " + comm.transports() + " / " + comm.sockets();
        });
        assertThat(said).containsExactly("tcp: no connection yet / tcp over lo to rank 1 / 2",
                "tcp: no connection yet / tcp over lo to rank 0 / 2", "tcp: no connection yet / tcp over lo to rank 3 / 2",
                "tcp: no connection yet / tcp over lo to rank 2 / 2");
    }

    /**
     * The README's count for W = 64 on one NIC, every collective but all-to-all(v): 1 listening socket and one
     * connection to each rank ± 2^k (k = 0..5), 11 peers: 12 sockets per rank. The sweep's own send/recv pairs (the
     * per-point reduction's rank XOR 2^k) and the benchmark's send/recv ring are among them.
     */
    @Test
    void sixtyFourRanksOpenTheSocketsOfTheFormula() throws Exception {
        final int world = 64;
        final long baseline = sockets();
        final CyclicBarrier counted = new CyclicBarrier(world);
        final long[] seen = new long[1];
        final List<Integer> each = LocalWorld.run(world, LocalWorld.options(Duration.ofSeconds(120)), comm -> {
            final int r = comm.rank();
            final CommBuffer a = comm.allocate(1 << 16);
            final CommBuffer b = comm.allocate(1 << 16);
            comm.barrier();
            comm.allReduce(a, b, 16, DType.FLOAT32, ReduceOp.SUM);
            comm.allReduce(a, b, 1 << 14, DType.FLOAT32, ReduceOp.SUM);
            comm.allGather(a.slice(0, 256), b, 1, DType.FLOAT32);
            comm.reduceScatter(a, b, 4, DType.FLOAT32, ReduceOp.SUM);
            comm.broadcast(a, b, 1000, DType.FLOAT32, 3);
            comm.reduce(a, b, 1000, DType.FLOAT32, ReduceOp.MAX, 5);
            comm.sendRecv(a, (r + 1) % world, b, (r + world - 1) % world, 100, DType.FLOAT32);
            for (int mask = 1; mask < world; mask <<= 1) {
                comm.sendRecv(a, r ^ mask, b, r ^ mask, 100, DType.FLOAT32);
            }
            if (counted.await(60, TimeUnit.SECONDS) == 0) {
                seen[0] = sockets() - baseline;
            }
            counted.await(60, TimeUnit.SECONDS);
            return comm.sockets();
        });
        final int perRank = 1 + formulaPeers(world);
        assertThat(formulaPeers(world)).isEqualTo(11);
        assertThat(each).containsOnly(perRank);
        // both ends of every connection are in this JVM
        assertThat(seen[0]).as("sockets opened in this JVM (/proc/self/fd)").isEqualTo((long) world * perRank);
    }

    /** |{r ± 2^k mod W : 2^k < W}| for W a power of two (the same for every r): the README's formula. */
    private static int formulaPeers(final int world) {
        final Set<Integer> s = new TreeSet<>();
        for (int d = 1; d < world; d <<= 1) {
            s.add(d % world);
            s.add(Math.floorMod(-d, world));
        }
        s.remove(0);
        return s.size();
    }

    /**
     * TCP sockets this process holds: the descriptors of /proc/self/fd that are sockets listed in /proc/net/tcp or
     * tcp6 (the JVM may hold a Unix socket of its own, e.g. to a name service).
     */
    private static long sockets() throws IOException {
        final Set<String> tcp = new TreeSet<>();
        for (final String table : List.of("/proc/self/net/tcp", "/proc/self/net/tcp6")) {
            for (final String line : Files.readAllLines(Path.of(table))) {
                final String[] f = line.trim().split("\\s+");
                if (f.length > 9 && !"inode".equals(f[9])) {
                    tcp.add("socket:[" + f[9] + "]");
                }
            }
        }
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(p -> {
                try {
                    return tcp.contains(Files.readSymbolicLink(p).toString());
                } catch (final IOException e) {
                    return false;
                }
            }).count();
        }
    }
}
