package cctk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The store over real loopback sockets, ranks as threads. */
@Timeout(60)
class StoreTest {

    static final List<InetAddress> LOOPBACK = List.of(InetAddress.getLoopbackAddress());
    private static final byte[] SECRET = "s3cret-of-the-job".getBytes(StandardCharsets.UTF_8);
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (final AutoCloseable c : open) {
            c.close();
        }
        pool.shutdownNow();
    }

    private StoreServer server(final int world, final Duration timeout) {
        final StoreServer s = StoreServer.start("localhost", LOOPBACK, 0, world, SECRET, timeout, log::add);
        open.add(s);
        return s;
    }

    private StoreClient client(final StoreServer s, final int rank, final int world, final Duration timeout) {
        final StoreClient c = StoreClient.connect("127.0.0.1", s.port(), rank, world, "host" + rank, SECRET, timeout);
        open.add(0, c);
        return c;
    }

    @Test
    void aDropForgetsTheKeysUnderItsPrefixAndTheStoreCountsEveryRequest() {
        final StoreServer s = server(1, Duration.ofSeconds(20));
        final StoreClient c = client(s, 0, 1, Duration.ofSeconds(20));
        c.set("run/a/1", new byte[100]);
        c.set("run/a/2", new byte[100]);
        c.set("run/b", new byte[10]);
        assertThat(s.keys()).isEqualTo(3);
        final long held = s.heldBytes();
        c.drop("run/a/");
        assertThat(s.keys()).isEqualTo(1);
        assertThat(s.heldBytes()).isEqualTo(held - 2 * ("run/a/1".length() + 100));
        assertThat(c.get("run/b")).hasSize(10);
        c.drop("run/");
        assertThat(s.keys()).isZero();
        assertThat(s.heldBytes()).isZero();
        // 3 sets, 2 drops, 1 get
        assertThat(s.traffic(0)[0]).isEqualTo(6);
        assertThat(s.traffic(0)[1]).isGreaterThan(210);
    }

    @Test
    void setGetAndBarrierAcrossRanks() throws Exception {
        final StoreServer s = server(3, Duration.ofSeconds(20));
        final List<Future<String>> results = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            final int rank = r;
            results.add(pool.submit(() -> {
                final StoreClient c = client(s, rank, 3, Duration.ofSeconds(20));
                c.set("addr/" + rank, ("endpoint-" + rank).getBytes(StandardCharsets.UTF_8));
                final String next = new String(c.get("addr/" + (rank + 1) % 3), StandardCharsets.UTF_8);
                c.barrier("done");
                c.barrier("done");
                return next;
            }));
        }
        for (int r = 0; r < 3; r++) {
            assertThat(results.get(r).get(20, TimeUnit.SECONDS)).isEqualTo("endpoint-" + (r + 1) % 3);
        }
        assertThat(s.failure()).isNull();
    }

    /** Waits until {@code n} requests wait at the server: the event the tests order themselves by. */
    private static void awaitWaiting(final StoreServer s, final int n) throws InterruptedException {
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (s.waiting() < n && System.nanoTime() < end) {
            Thread.sleep(2);
        }
        assertThat(s.waiting()).as("requests waiting at the store").isGreaterThanOrEqualTo(n);
    }

    @Test
    void getWaitsForALaterSet() throws Exception {
        final StoreServer s = server(2, Duration.ofSeconds(20));
        final StoreClient a = client(s, 0, 2, Duration.ofSeconds(20));
        final Future<byte[]> value = pool.submit(() -> a.get("uid"));
        awaitWaiting(s, 1);
        assertThat(value).isNotDone();
        client(s, 1, 2, Duration.ofSeconds(20)).set("uid", new byte[] {1, 2, 3});
        assertThat(value.get(10, TimeUnit.SECONDS)).containsExactly(1, 2, 3);
    }

    @Test
    void aRankThatNeverJoinsIsNamedByTheDeadline() {
        final StoreServer s = server(3, Duration.ofSeconds(2));
        final StoreClient a = client(s, 0, 3, Duration.ofSeconds(2));
        client(s, 1, 3, Duration.ofSeconds(2));
        final long start = System.nanoTime();
        assertThatThrownBy(() -> a.barrier("start"))
                .isInstanceOf(CctkException.class)
                .hasMessageContaining("rank 2 did not join within 2 s");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(6));
    }

    @Test
    void aRankThatDisconnectsFailsPendingAndLaterWaitsNamingIt() throws Exception {
        final StoreServer s = server(3, Duration.ofSeconds(30));
        final StoreClient a = client(s, 0, 3, Duration.ofSeconds(30));
        final StoreClient b = client(s, 1, 3, Duration.ofSeconds(30));
        final Socket raw = rawJoin(s.port(), 2, 3, SECRET);
        final List<String> pushed = new CopyOnWriteArrayList<>();
        b.onFailure(pushed::add);
        final Future<?> waiting = pool.submit(() -> a.barrier("b"));
        awaitWaiting(s, 1);
        raw.close();
        assertThatThrownBy(() -> waiting.get(10, TimeUnit.SECONDS))
                .hasMessageContaining("rank 2 (host stranger-host) disconnected");
        assertThatThrownBy(() -> b.get("anything")).hasMessageContaining("rank 2 (host stranger-host) disconnected");
        // the push reaches b on its reader thread, which may run after b.get has already seen the failure
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pushed.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(pushed).singleElement().asString().contains("rank 2");
        // issue 25: the departed rank is a value too, on the server and on every rank it pushed to
        assertThat(s.departed()).isEqualTo(2);
        assertThat(b.departed()).isEqualTo(2);
    }

    @Test
    void clientsNoticeTheServerGoingAway() throws Exception {
        final StoreServer s = server(2, Duration.ofSeconds(30));
        final StoreClient b = client(s, 1, 2, Duration.ofSeconds(30));
        final Future<?> waiting = pool.submit(() -> b.get("never"));
        awaitWaiting(s, 1);
        s.close();
        assertThatThrownBy(() -> waiting.get(10, TimeUnit.SECONDS)).hasMessageContaining("rank 0");
        // the store lost is rank 0's: the client knows it as a value
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (b.departed() < 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(b.departed()).isZero();
    }

    @Test
    void aPeerWithoutTheSecretIsRefusedAndLogged() {
        final StoreServer s = server(2, Duration.ofSeconds(10));
        assertThatThrownBy(() -> StoreClient.connect("127.0.0.1", s.port(), 1, 2, "intruder",
                "wrong".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(5)))
                .isInstanceOf(CctkException.class)
                .hasMessageContaining("refused rank 1")
                .hasMessageContaining("secret");
        // the store logs the refusal on its handshake thread, which may run after the client has its answer
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (log.stream().noneMatch(l -> l.contains("refused") && l.contains("secret")) && System.nanoTime() < end) {
            Thread.yield();
        }
        assertThat(log).anySatisfy(l -> assertThat(l).contains("refused", "secret"));
        // the real rank 1 can still join afterwards
        client(s, 1, 2, Duration.ofSeconds(5));
    }

    @Test
    void aServerWithoutTheSecretIsNotTrusted() throws Exception {
        try (ServerSocket fake = new ServerSocket(0)) {
            pool.submit(() -> {
                try (Socket peer = fake.accept()) {
                    final DataOutputStream out = new DataOutputStream(peer.getOutputStream());
                    new StoreFrame.Builder().putBytes(JoinProof.nonce()).frame(StoreFrame.Type.CHALLENGE, 0)
                            .writeTo(out);
                    StoreFrame.readFrom(new DataInputStream(peer.getInputStream()), 4096);
                    new StoreFrame.Builder().putBytes(new byte[32]).frame(StoreFrame.Type.WELCOME, 0).writeTo(out);
                    peer.setSoTimeout(10_000);
                    peer.getInputStream().read(); // held open until the client hangs up on the bad proof
                }
                return null;
            });
            assertThatThrownBy(() -> StoreClient.connect("127.0.0.1", fake.getLocalPort(), 1, 2, "me", SECRET,
                    Duration.ofSeconds(5))).hasMessageContaining("is not this job's rank 0");
        }
    }

    @Test
    void aPortInUseIsAClearError() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            assertThatThrownBy(() -> StoreServer.start("nodeA", LOOPBACK, taken.getLocalPort(), 2, SECRET,
                    Duration.ofSeconds(5), log::add))
                    .isInstanceOf(CctkException.class)
                    .hasMessageContaining("port " + taken.getLocalPort() + " on nodeA is in use: another job? set"
                            + " MASTER_PORT");
        }
    }

    @Test
    void clientsRetryWhileRankZeroStarts() throws Exception {
        final int port;
        final Future<StoreClient> late;
        try (ServerSocket notYet = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = notYet.getLocalPort();
            late = pool.submit(() -> StoreClient.connect("127.0.0.1", port, 1, 2, "h1", SECRET,
                    Duration.ofSeconds(15)));
            // the client's first try reaches a port that is not rank 0's store yet: it must try again
            notYet.setSoTimeout(10_000);
            notYet.accept().close();
        }
        final StoreServer s = StoreServer.start("localhost", LOOPBACK, port, 2, SECRET, Duration.ofSeconds(15), log::add);
        open.add(s);
        final StoreClient b = late.get(10, TimeUnit.SECONDS);
        open.add(0, b);
        b.set("k", new byte[] {7});
        assertThat(client(s, 0, 2, Duration.ofSeconds(5)).get("k")).containsExactly(7);
    }

    @Test
    void aRankThatNeverConnectsTimesOutNamingTheServer() {
        assertThatThrownBy(() -> StoreClient.connect("127.0.0.1", 1, 1, 2, "h", SECRET, Duration.ofSeconds(1)))
                .hasMessageContaining("could not reach rank 0's store at 127.0.0.1:1 within 1 s");
    }

    /** Joins as {@code rank} by hand, to be closed abruptly like a killed process. */
    static Socket rawJoin(final int port, final int rank, final int world, final byte[] secret) throws Exception {
        final Socket s = new Socket("127.0.0.1", port);
        final DataInputStream in = new DataInputStream(s.getInputStream());
        final DataOutputStream out = new DataOutputStream(s.getOutputStream());
        final byte[] nonce = StoreFrame.readFrom(in, 4096).fields().getBytes();
        new StoreFrame.Builder().putInt(rank).putInt(world).putString("stranger-host")
                .putBytes(new JoinProof(secret).rankProof(nonce, rank, world)).putBytes(JoinProof.nonce())
                .frame(StoreFrame.Type.JOIN, 0).writeTo(out);
        assertThat(StoreFrame.readFrom(in, 4096).type()).isEqualTo(StoreFrame.Type.WELCOME);
        return s;
    }
}
