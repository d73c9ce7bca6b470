package cctk.rank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.MemoryStore;
import cctk.comm.ReduceOp;
import cctk.spec.TcpSettings;
import java.net.Inet4Address;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The CPU backend's choice of transports, made by the ranks themselves through a store: four ranks as threads, each
 * with the host key a test gives it (two "hosts" are two keys), each running a real all-reduce on what was chosen.
 */
@Timeout(120)
class CpuTransportsTest {

    private static final byte[] SECRET = "cpu-transports-test".getBytes(StandardCharsets.UTF_8);
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final int WORLD = 4;
    private static final int COUNT = 1000;
    /** A real NIC of this machine: several hosts refuse loopback, which other nodes could not reach. */
    private static final List<String> NICS = List.of(firstNic());

    /** What one rank saw: its transports line, its backend name, whether its all-reduce was right. */
    record Seen(String transports, String backend, boolean right) {
    }

    @Test
    void ranksOfOneHostTalkThroughSharedMemory() throws Exception {
        final List<Seen> seen = world("tcp", TcpSettings.DEFAULT, r -> "hostA");
        assertThat(seen).allSatisfy(s -> assertThat(s.right()).isTrue());
        assertThat(seen.get(0).transports()).startsWith("shm to ranks 1-3").doesNotContain("tcp over");
        assertThat(seen.get(0).backend()).isEqualTo("tcp");
    }

    @Test
    void hostsInBlocksRunTheHierarchicalAlgorithms() throws Exception {
        final List<Seen> seen = world("tcp", TcpSettings.DEFAULT, r -> r < 2 ? "hostA" : "hostB");
        assertThat(seen).allSatisfy(s -> assertThat(s.right()).isTrue());
        assertThat(seen.get(0).transports()).startsWith("node 0 of 2: shm to rank 1").contains("(leaders)")
            .contains("to rank 2");
        assertThat(seen.get(3).transports()).startsWith("node 1 of 2: shm to rank 2").doesNotContain("(leaders)");
    }

    @Test
    void hostsNotInBlocksRunFlatTcpAndSayWhy() throws Exception {
        final List<Seen> seen = world("tcp", TcpSettings.DEFAULT, r -> r % 2 == 0 ? "hostA" : "hostB");
        assertThat(seen).allSatisfy(s -> assertThat(s.right()).isTrue());
        assertThat(seen.get(0).transports()).startsWith("flat tcp: hosts hold 2, 2 ranks;")
            .contains("in blocks").doesNotContain("shm");
    }

    @Test
    void insistingOnHierarchicalWhereItCannotRunNamesWhy() {
        final TcpSettings hierarchical = new TcpSettings(TcpSettings.Shm.AUTO, TcpSettings.Algorithm.HIERARCHICAL);
        assertThatThrownBy(() -> world("tcp", hierarchical, r -> r < 3 ? "hostA" : "hostB"))
            .hasRootCauseInstanceOf(CctkException.class)
            .rootCause().hasMessageContaining("tcp.algorithm is hierarchical, but hosts hold 3, 1 ranks");
    }

    @Test
    void flatAlgorithmAcrossHostsIsSaidInTheHeader() throws Exception {
        final TcpSettings flat = new TcpSettings(TcpSettings.Shm.AUTO, TcpSettings.Algorithm.FLAT);
        final List<Seen> seen = world("tcp", flat, r -> r < 2 ? "hostA" : "hostB");
        assertThat(seen).allSatisfy(s -> assertThat(s.right()).isTrue());
        assertThat(seen.get(1).transports()).startsWith("flat tcp (tcp.algorithm: flat)").doesNotContain("shm");
    }

    @Test
    void shmOffAndTheFlatBackendUseTcpOnOneHost() throws Exception {
        final TcpSettings off = new TcpSettings(TcpSettings.Shm.OFF, TcpSettings.Algorithm.AUTO);
        for (final List<Seen> seen : List.of(world("tcp", off, r -> "hostA"),
            world(CpuTransports.FLAT, TcpSettings.DEFAULT, r -> "hostA"))) {
            assertThat(seen).allSatisfy(s -> assertThat(s.right()).isTrue());
            assertThat(seen.get(0).transports()).doesNotContain("shm").contains("tcp");
        }
        assertThat(world(CpuTransports.FLAT, TcpSettings.DEFAULT, r -> "hostA").get(0).backend())
            .as("results of tcp-flat are filed under its own name").isEqualTo("tcp-flat");
    }

    @Test
    void theLayoutGroupsRanksByHostInOrderOfTheirLowestRank() throws Exception {
        final MemoryStore store = new MemoryStore(WORLD, DEADLINE);
        final String[] keys = {"b", "a", "b", "a"};
        final List<HostLayout> layouts = parallel(r -> HostLayout.find(store, "p/", r, WORLD, keys[r]));
        assertThat(layouts.get(0)).isEqualTo(new HostLayout(2, 0, List.of(0, 2), 0, List.of(2, 2)));
        assertThat(layouts.get(1)).isEqualTo(new HostLayout(2, 1, List.of(1, 3), 0, List.of(2, 2)));
        assertThat(layouts.get(0).blocks()).isFalse();
        final MemoryStore blocks = new MemoryStore(WORLD, DEADLINE);
        final List<HostLayout> inBlocks = parallel(r -> HostLayout.find(blocks, "q/", r, WORLD, r < 2 ? "x" : "y"));
        assertThat(inBlocks.get(3)).isEqualTo(new HostLayout(2, 1, List.of(2, 3), 2, List.of(2, 2)));
        assertThat(inBlocks.get(3).blocks()).isTrue();
        assertThat(blocks.keys()).noneMatch(k -> k.startsWith("q/host/"));
    }

    @Test
    void aMissingNicIsRefusedEvenWhenSharedMemoryCarriesTheRun() {
        assertThatThrownBy(() -> world("tcp", TcpSettings.DEFAULT, r -> "hostA", List.of("nosuchnic9")))
            .hasRootCauseInstanceOf(CctkException.class)
            .rootCause().hasMessageContaining("no network interface 'nosuchnic9'");
    }

    private static List<Seen> world(final String backend, final TcpSettings tcp, final Function<Integer, String> host)
        throws Exception {
        return world(backend, tcp, host, NICS);
    }

    private static List<Seen> world(final String backend, final TcpSettings tcp, final Function<Integer, String> host,
                                    final List<String> nics) throws Exception {
        final MemoryStore store = new MemoryStore(WORLD, DEADLINE);
        return parallel(r -> {
            final RankIdentity id = new RankIdentity(r, WORLD, 0, 0, List.of("n"), "job", 0, "127.0.0.1", 1,
                RankIdentity.Source.LAUNCHER);
            try (Communicator c = new CpuTransports(SECRET, host.apply(r))
                .connect(backend, id, store, nics, DEADLINE, tcp)) {
                final boolean right = allReduceIsRight(c);
                return new Seen(c.transports(), c.backend(), right);
            }
        });
    }

    /** Rank r contributes r + i at element i; every rank must end with the sum, W(W-1)/2 + W i. */
    private static boolean allReduceIsRight(final Communicator c) {
        final CommBuffer send = c.allocate(COUNT * 4L);
        final CommBuffer recv = c.allocate(COUNT * 4L);
        final ByteBuffer b = ByteBuffer.allocate(COUNT * 4).order(ByteOrder.nativeOrder());
        for (int i = 0; i < COUNT; i++) {
            b.putFloat(c.rank() + i);
        }
        send.upload(b.flip(), 0);
        c.allReduce(send, recv, COUNT, DType.FLOAT32, ReduceOp.SUM);
        b.clear();
        recv.download(0, b);
        boolean right = true;
        for (int i = 0; i < COUNT; i++) {
            right &= b.getFloat(i * 4) == WORLD * (WORLD - 1) / 2f + WORLD * (float) i;
        }
        c.free(send);
        c.free(recv);
        return right;
    }

    /** The first NIC that is up, not loopback, with an IPv4 address; the test cannot run without one. */
    private static String firstNic() {
        try {
            for (final NetworkInterface n : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (n.isUp() && !n.isLoopback() && Collections.list(n.getInetAddresses()).stream()
                    .anyMatch(a -> a instanceof Inet4Address)) {
                    return n.getName();
                }
            }
        } catch (final SocketException e) {
            throw new IllegalStateException("cannot list this machine's NICs", e);
        }
        throw new IllegalStateException("this machine has no NIC that is up with an IPv4 address besides loopback:"
            + " the tests of several hosts need one");
    }

    private interface RankBody<T> {
        T run(int rank) throws Exception;
    }

    private static <T> List<T> parallel(final RankBody<T> body) throws Exception {
        final ExecutorService pool = Executors.newFixedThreadPool(WORLD);
        try {
            final List<Future<T>> futures = new ArrayList<>();
            for (int r = 0; r < WORLD; r++) {
                final int rank = r;
                futures.add(pool.submit(() -> body.run(rank)));
            }
            final List<T> out = new ArrayList<>();
            for (final Future<T> f : futures) {
                out.add(f.get(60, TimeUnit.SECONDS));
            }
            return out;
        } catch (final ExecutionException e) {
            throw e;
        } finally {
            pool.shutdownNow();
        }
    }
}
