package cctk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.rank.RankIdentity;
import cctk.rank.Rendezvous;
import cctk.store.StoreAddresses.Layout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The store binds only the addresses the job uses: the choice on stand-in hosts shaped like a laptop, a Debian node
 * and the two-node test cluster (eth0 10.10.1.N, eth1 10.10.2.N, names in /etc/hosts), and a real local rendezvous.
 */
@Timeout(60)
class StoreAddressesTest {

    /** A stand-in machine: names, its own addresses, and the kernel's source address per remote. */
    private record FakeHost(Map<String, List<String>> names, Set<String> local, Map<String, String> routes)
            implements StoreAddresses.Host {

        @Override
        public InetAddress[] resolve(final String name) throws UnknownHostException {
            final List<String> a = names.get(name);
            if (a == null) {
                throw new UnknownHostException(name);
            }
            final InetAddress[] out = new InetAddress[a.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = InetAddress.getByName(a.get(i));
            }
            return out;
        }

        @Override
        public boolean isLocal(final InetAddress address) {
            return address.isLoopbackAddress() || local.contains(address.getHostAddress());
        }

        @Override
        public InetAddress sourceFor(final InetAddress remote) {
            final String s = routes.get(remote.getHostAddress());
            try {
                return s == null ? null : InetAddress.getByName(s);
            } catch (final UnknownHostException e) {
                throw new AssertionError(e);
            }
        }
    }

    private static final FakeHost NODE1 = new FakeHost(Map.of("node1", List.of("10.10.1.1"),
            "node2", List.of("10.10.1.2"), "127.0.0.1", List.of("127.0.0.1"),
            "localhost", List.of("127.0.0.1", "::1")),
            Set.of("10.10.1.1", "10.10.2.1"), Map.of("10.10.1.2", "10.10.1.1"));

    private static final FakeHost DEBIAN = new FakeHost(Map.of("node1", List.of("127.0.1.1"),
            "node2", List.of("10.10.1.2")), Set.of("10.10.1.1", "10.10.2.1"), Map.of("10.10.1.2", "10.10.1.1"));

    private static List<String> chosen(final String host, final List<String> nodes, final Layout layout,
                                       final FakeHost on) {
        final List<String> out = new ArrayList<>();
        for (final InetAddress a : StoreAddresses.choose(host, nodes, layout, on)) {
            out.add(a.getHostAddress());
        }
        return out;
    }

    @Test
    void aLocalRunListensOnLoopbackOnly() {
        assertThat(chosen("127.0.0.1", List.of("vm"), Layout.ONE_NODE, NODE1)).containsExactly("127.0.0.1");
        assertThat(chosen("localhost", List.of("vm"), Layout.ONE_NODE, NODE1))
                .containsExactly("127.0.0.1", "0:0:0:0:0:0:0:1");
    }

    @Test
    void aTwoNodeJobListensOnTheAddressItsNameResolvesTo() {
        assertThat(chosen("node1", List.of("node1", "node2"), Layout.NODES, NODE1)).containsExactly("10.10.1.1");
    }

    @Test
    void debiansOwnNameOnLoopbackFallsBackToTheRouteToTheOtherNodes() {
        assertThat(chosen("node1", List.of("node1", "node2"), Layout.NODES, DEBIAN)).containsExactly("10.10.1.1");
    }

    @Test
    void aOneNodeJobMayUseDebiansLoopbackName() {
        assertThat(chosen("node1", List.of("node1"), Layout.ONE_NODE, DEBIAN)).containsExactly("127.0.1.1");
    }

    @Test
    void loopbackIsDroppedBesideARealAddressForSeveralNodes() {
        final FakeHost both = new FakeHost(Map.of("node1", List.of("10.10.1.1", "127.0.1.1")),
                Set.of("10.10.1.1"), Map.of());
        assertThat(chosen("node1", List.of("node1", "node2"), Layout.NODES, both)).containsExactly("10.10.1.1");
    }

    @Test
    void anUnknownLayoutPrefersRealAddressesThenTheLoopbackName() {
        assertThat(chosen("node1", List.of("node1"), Layout.UNKNOWN, NODE1)).containsExactly("10.10.1.1");
        assertThat(chosen("node1", List.of("node1"), Layout.UNKNOWN, DEBIAN)).containsExactly("127.0.1.1");
    }

    @Test
    void noUsableAddressIsAClearError() {
        final FakeHost lonely = new FakeHost(Map.of("node1", List.of("127.0.1.1")), Set.of(), Map.of());
        assertThatThrownBy(() -> StoreAddresses.choose("node1", List.of("node1", "node2"), Layout.NODES, lonely))
                .isInstanceOf(CctkException.class).hasMessageContaining("MASTER_ADDR")
                .hasMessageContaining("127.0.1.1");
        assertThatThrownBy(() -> StoreAddresses.choose("nowhere", List.of("x"), Layout.NODES, lonely))
                .isInstanceOf(CctkException.class).hasMessageContaining("cannot resolve the rendezvous host");
    }

    @Test
    void thisMachineKnowsItsOwnAddressesAndCanBindWhatItChooses() throws Exception {
        assertThat(StoreAddresses.SYSTEM.isLocal(InetAddress.getByName("127.0.0.1"))).isTrue();
        assertThat(StoreAddresses.SYSTEM.isLocal(InetAddress.getByName("127.0.1.1"))).isTrue();
        assertThat(StoreAddresses.SYSTEM.isLocal(InetAddress.getByName("192.0.2.1"))).isFalse();
        assertThat(StoreAddresses.SYSTEM.sourceFor(InetAddress.getByName("127.0.0.1")).isLoopbackAddress()).isTrue();
        final List<InetAddress> chosen = StoreAddresses.choose("localhost", List.of("localhost"), Layout.ONE_NODE,
                StoreAddresses.SYSTEM);
        assertThat(chosen).isNotEmpty().allSatisfy(a -> assertThat(a.isLoopbackAddress()).isTrue());
        for (final java.nio.channels.ServerSocketChannel c : StoreAddresses.listen(chosen, 0, 5)) {
            c.close();
        }
    }

    @Test
    void aLocalRendezvousListensOn127001AndNotTheWildcard() throws Exception {
        final RankIdentity id = new RankIdentity(0, 1, 0, 0, List.of("localhost"), "t", 0, "127.0.0.1", 0,
                RankIdentity.Source.LAUNCHER);
        try (Rendezvous r = Rendezvous.join(id, "s".getBytes(StandardCharsets.UTF_8), "localhost", Duration.ofSeconds(10),
                l -> { })) {
            r.set("k", new byte[] {1});
            final List<InetSocketAddress> bound = r.storeAddresses();
            assertThat(bound).hasSize(1);
            assertThat(bound.get(0).getAddress().getHostAddress()).isEqualTo("127.0.0.1");
            final List<String> listeners = listeners(bound.get(0).getPort());
            assertThat(listeners).as("listening sockets of this JVM's store").isNotEmpty()
                    .allSatisfy(l -> assertThat(l).matches("(0100007F|0000000000000000FFFF00000100007F):.*"));
        }
    }

    @Test
    void rankZeroKnowsARankCrashedTheMomentItsStoreDoes() throws Exception {
        // a signal can reach rank 0 between its store failing and the push reaching rank 0's own client: the store's
        // log line is written in that gap, so what rank 0 says there is what a signal would have found
        final byte[] secret = "s".getBytes(StandardCharsets.UTF_8);
        final RankIdentity id = new RankIdentity(0, 2, 0, 0, List.of("localhost"), "t", 0, "127.0.0.1", 0,
                RankIdentity.Source.LAUNCHER);
        final List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        final Rendezvous[] self = new Rendezvous[1];
        try (Rendezvous r = Rendezvous.join(id, secret, "localhost", Duration.ofSeconds(20), l -> {
            if (self[0] != null) {
                seen.add(self[0].departed() + " " + self[0].failure());
            }
        })) {
            self[0] = r;
            StoreTest.rawJoin(r.storeAddresses().get(0).getPort(), 1, 2, secret).close();
            assertThatThrownBy(() -> r.barrier("b")).hasMessageContaining("rank 1 (host stranger-host) disconnected");
            assertThat(seen).containsExactly("1 rank 1 (host stranger-host) disconnected from the rendezvous store: "
                    + "it exited or crashed.");
        }
    }

    /** Local addresses (hex, as /proc/net/tcp writes them) of listening sockets on the store's port. */
    private static List<String> listeners(final int port) throws Exception {
        final List<String> out = new ArrayList<>();
        for (final String file : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            for (final String line : Files.readAllLines(Path.of(file))) {
                final String[] f = line.trim().split("\\s+");
                if (f.length > 3 && "0A".equals(f[3]) && f[1].toUpperCase(Locale.ROOT).endsWith(String.format(":%04X", port))) {
                    out.add(f[1]);
                }
            }
        }
        return out;
    }
}
