package cctk.store;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.AdversarialTally;
import cctk.AdversarialTally.Outcome;
import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.JobProof;
import cctk.comm.MemoryStore;
import cctk.comm.ReduceOp;
import cctk.comm.tcp.TcpCommunicator;
import cctk.comm.tcp.TcpOptions;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The adversarial run's attacks on the rendezvous store and the tcp mesh, each against a fresh world of two ranks
 * over loopback: the stranger must get nothing (not a rank's data, not a welcome), the real ranks must still
 * finish with correct data, and nothing may hang or print a stack trace. Area {@code store and mesh attacks}.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class StoreAndMeshAttacksTest {

    private static final AdversarialTally TALLY = new AdversarialTally("store and mesh attacks");
    private static final byte[] SECRET = "the-job-secret-1234".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OTHER_SECRET = "another-jobs-secret".getBytes(StandardCharsets.UTF_8);
    private static final JobProof PROOF = new JobProof(SECRET);

    /** What the stranger does once connected. */
    private interface Attack {
        void on(Socket stranger) throws Exception;
    }

    @AfterAll
    static void report() {
        TALLY.report();
        assertThat(TALLY.failures()).isEmpty();
        assertThat(TALLY.inputs()).isGreaterThanOrEqualTo(20);
    }

    @Test
    void meshAttacks() throws Exception {
        mesh("mesh: forged 12-byte hello claiming rank 1", s -> send(s, ints(1, 0, 2), true));
        mesh("mesh: short hello", s -> send(s, new byte[] {0, 0, 0, 1, 0}, true));
        mesh("mesh: 76 bytes of garbage", s -> send(s, new byte[76], true));
        mesh("mesh: oversized hello (1 MiB)", s -> send(s, new byte[1 << 20], true));
        mesh("mesh: HTTP request", s -> send(s, "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.UTF_8),
                false));
        mesh("mesh: wrong-world hello without the secret", s -> send(s, meshHello(s, 1, 0, 7, new JobProof(
                OTHER_SECRET)), false));
        mesh("mesh: wrong-world hello of a job member", s -> send(s, meshHello(s, 1, 0, 3, PROOF), false));
        mesh("mesh: hello with another job's secret", s -> send(s, meshHello(s, 1, 0, 2, new JobProof(
                OTHER_SECRET)), false));
        mesh("mesh: replayed hello (proof for an earlier nonce)", s -> {
            readChallenge(s);
            send(s, hello(JobProof.nonce(), 1, 0, 2, PROOF), false);
        });
        mesh("mesh: silent stranger", s -> { });
        mesh("mesh: stranger that dribbles a hello", s -> {
            readChallenge(s);
            s.getOutputStream().write(new byte[] {0, 0});
        });
        mesh("mesh: duplicate hellos claiming rank 1", s -> {
            try (Socket second = new Socket()) {
                second.connect(s.getRemoteSocketAddress(), 5_000);
                send(second, ints(1, 0, 2), true);
                send(s, ints(1, 0, 2), true);
            }
        });
        mesh("mesh: 100 connections before the real peer", s -> {
            final List<Socket> flood = new ArrayList<>();
            try {
                for (int i = 0; i < 100; i++) {
                    final Socket f = new Socket();
                    flood.add(f);
                    f.connect(s.getRemoteSocketAddress(), 5_000);
                }
            } finally {
                for (final Socket f : flood) {
                    f.close();
                }
            }
        });
    }

    @Test
    void storeAttacks() throws Exception {
        storeAttack("store: join without the secret", p -> join(p, 1, 2, new byte[32], null));
        storeAttack("store: join with another job's secret", p -> join(p, 1, 2, null,
                new JoinProof(OTHER_SECRET)));
        storeAttack("store: replayed join proof", p -> join(p, 1, 2,
                new JoinProof(SECRET).rankProof(JoinProof.nonce(), 1, 2), null));
        store("store: oversized frame (2 GiB)", p -> raw(p, ints(Integer.MAX_VALUE, 0, 0)));
        store("store: handshake frame over 4 KiB", p -> raw(p, ints(4097, 0x01000000, 0)));
        store("store: unknown frame type", p -> raw(p, new byte[] {0, 0, 0, 5, 99, 0, 0, 0, 0}));
        store("store: HTTP request", p -> raw(p, "GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.UTF_8)));
        storeAttack("store: wrong rank (5 of 2) with the secret", p -> join(p, 5, 2, null, new JoinProof(SECRET)));
        storeAttack("store: wrong world (1 of 3) with the secret", p -> join(p, 1, 3, null, new JoinProof(SECRET)));
        store("store: 300 idle connections", StoreAndMeshAttacksTest::idleFlood);
        store("store: slow-loris join", StoreAndMeshAttacksTest::slowLoris);
        store("store: connection to an address the job does not use (127.0.0.2)", p -> {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.2", p), 5_000);
                throw new AssertionError("the store answers on 127.0.0.2");
            } catch (final ConnectException e) {
                // refused: the store listens on 127.0.0.1 only
            }
        });
    }

    @Test
    void storeRefusesADuplicateRank() throws Exception {
        final List<String> log = new CopyOnWriteArrayList<>();
        try (StoreServer s = storeOfTwo(log); StoreClient one = rank1(s, "h1")) {
            final boolean welcomed = join(s.port(), 1, 2, null, new JoinProof(SECRET));
            final Outcome broken = brokenAfter(s, one);
            TALLY.record("store: duplicate rank 1 with the secret", welcomed ? Outcome.STRANGER_ACCEPTED
                    : broken != null ? broken : clean(log) ? Outcome.CLEAR_ERROR : Outcome.STACK_TRACE);
            assertThat(welcomed).isFalse();
            assertThat(broken).as("the real ranks 0 and 1 after the refused duplicate; log: " + log).isNull();
            assertThat(log).anySatisfy(l -> assertThat(l).contains("already joined"));
        }
    }

    /** The check itself: a slot taken before the real rank comes is a stranger accepted, never a healthy store. */
    @Test
    void aStolenRankSlotIsCaughtNotHealthy() throws Exception {
        final List<String> log = new CopyOnWriteArrayList<>();
        try (StoreServer s = storeOfTwo(log); StoreClient thief = rank1(s, "thief")) {
            assertThat(thief).isNotNull();
            assertThat(brokenAfter(s, null)).isEqualTo(Outcome.STRANGER_ACCEPTED);
            assertThat(log).anySatisfy(l -> assertThat(l).contains("rank 1 already joined from thief"));
        }
    }

    // ---- the mesh ---------------------------------------------------------------------------------------------

    private static void mesh(final String name, final Attack attack) throws Exception {
        final List<String> log = new CopyOnWriteArrayList<>();
        final TcpOptions options = new TcpOptions(List.of(), false, Duration.ofSeconds(20),
                TcpOptions.DEFAULT_SOCKET_BUFFER, "adv", SECRET, log::add);
        final MemoryStore store = new MemoryStore(2, Duration.ofSeconds(30));
        final ExecutorService pool = Executors.newFixedThreadPool(3);
        Outcome outcome;
        try (Socket stranger = new Socket()) {
            final Future<Float> rank0 = pool.submit(() -> sum(options, 0, store));
            final String[] endpoint = new String(store.get("adv/tcp/endpoints/0"), StandardCharsets.UTF_8)
                    .split("\\|");
            stranger.connect(new InetSocketAddress(endpoint[0], Integer.parseInt(endpoint[1])), 5_000);
            pool.submit(() -> {
                attack.on(stranger);
                return null;
            }).get(30, TimeUnit.SECONDS);
            final Future<Float> rank1 = pool.submit(() -> sum(options, 1, store));
            final boolean correct = rank0.get(60, TimeUnit.SECONDS) == 1f && rank1.get(60, TimeUnit.SECONDS) == 1f;
            final long got = bytesUntilClosed(stranger);
            outcome = got > 32 || !correct ? Outcome.STRANGER_ACCEPTED : clean(log) ? Outcome.HANDLED
                    : Outcome.STACK_TRACE;
        } catch (final TimeoutException e) {
            outcome = Outcome.HANG;
        } catch (final java.util.concurrent.ExecutionException e) {
            outcome = Outcome.WRONG_EXIT_CODE;
        } finally {
            pool.shutdownNow();
        }
        TALLY.record(name, outcome);
        assertThat(outcome).as(name + "; log: " + log).isEqualTo(Outcome.HANDLED);
    }

    private static float sum(final TcpOptions options, final int rank, final MemoryStore store) {
        try (TcpCommunicator comm = TcpCommunicator.connect(options, rank, 2, store)) {
            final CommBuffer b = comm.allocate(4);
            final ByteBuffer h = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putFloat(0, rank);
            b.upload(h, 0);
            comm.allReduce(b, b, 1, DType.FLOAT32, ReduceOp.SUM);
            h.clear();
            b.download(0, h);
            return h.getFloat(0);
        }
    }

    private static byte[] meshHello(final Socket s, final int rank, final int stripe, final int world,
                                    final JobProof proof) throws IOException {
        return hello(readChallenge(s), rank, stripe, world, proof);
    }

    /** The mesh hello as its Javadoc lays it out (rank 0 is the acceptor, key prefix "adv"). */
    private static byte[] hello(final byte[] challenge, final int rank, final int stripe, final int world,
                                final JobProof proof) {
        final byte[] mac = proof.prove("cctk-mesh-dial", challenge, ints(rank, stripe, world, 0),
                "adv".getBytes(StandardCharsets.UTF_8));
        return ByteBuffer.allocate(76).put(ints(rank, stripe, world)).put(JobProof.nonce()).put(mac).array();
    }

    private static byte[] readChallenge(final Socket s) throws IOException {
        s.setSoTimeout(10_000);
        return s.getInputStream().readNBytes(32);
    }

    // ---- the store --------------------------------------------------------------------------------------------

    /** An attack on a store's port: true when the stranger was welcomed as a rank. */
    private interface StoreAttack {
        boolean on(int port) throws Exception;
    }

    private interface VoidStoreAttack {
        void on(int port) throws Exception;
    }

    private static void store(final String name, final VoidStoreAttack attack) throws Exception {
        storeAttack(name, p -> {
            attack.on(p);
            return false;
        });
    }

    private static void storeAttack(final String name, final StoreAttack attack) throws Exception {
        final List<String> log = new CopyOnWriteArrayList<>();
        final ExecutorService pool = Executors.newSingleThreadExecutor();
        Outcome outcome;
        try (StoreServer s = storeOfTwo(log)) {
            final boolean welcomed = pool.submit(() -> attack.on(s.port())).get(60, TimeUnit.SECONDS);
            final Outcome broken = welcomed ? null : brokenAfter(s, null);
            outcome = welcomed ? Outcome.STRANGER_ACCEPTED : broken != null ? broken
                    : !clean(log) ? Outcome.STACK_TRACE : log.isEmpty() ? Outcome.HANDLED : Outcome.CLEAR_ERROR;
        } catch (final TimeoutException e) {
            outcome = Outcome.HANG;
        } finally {
            pool.shutdownNow();
        }
        TALLY.record(name, outcome);
        assertThat(outcome).as(name + "; log: " + log).isIn(Outcome.HANDLED, Outcome.CLEAR_ERROR);
    }

    /** A store for a world of 2 on the loopback address, that logs into {@code log}. */
    private static StoreServer storeOfTwo(final List<String> log) throws Exception {
        return StoreServer.start("localhost", StoreTest.LOOPBACK, 0, 2, SECRET, Duration.ofSeconds(30), log::add);
    }

    /** Rank 1 of 2 joined to {@code s} with the job's secret, from host {@code host}. */
    private static StoreClient rank1(final StoreServer s, final String host) throws Exception {
        return StoreClient.connect("127.0.0.1", s.port(), 1, 2, host, SECRET, Duration.ofSeconds(10));
    }

    /**
     * The real ranks join after the attack (rank 1 only when {@code rank1} is null: not joined yet) and exchange a
     * value. Null when they could; STRANGER_ACCEPTED when a real rank was refused because its slot was already
     * taken (the attack stole it); WRONG_EXIT_CODE when the store failed otherwise.
     */
    private static Outcome brokenAfter(final StoreServer s, final StoreClient rank1) {
        try (StoreClient a = StoreClient.connect("127.0.0.1", s.port(), 0, 2, "h0", SECRET, Duration.ofSeconds(30));
             StoreClient b = rank1 != null ? null
                     : StoreClient.connect("127.0.0.1", s.port(), 1, 2, "h1", SECRET, Duration.ofSeconds(30))) {
            a.set("after", new byte[] {9});
            final boolean exchanged = (rank1 != null ? rank1 : b).get("after")[0] == 9;
            return exchanged && s.failure() == null ? null : Outcome.WRONG_EXIT_CODE;
        } catch (final RuntimeException e) {
            return e.getMessage() != null && e.getMessage().contains("already joined") ? Outcome.STRANGER_ACCEPTED
                    : Outcome.WRONG_EXIT_CODE;
        }
    }

    /** Joins by hand with {@code mac} (or a proof by {@code prover}); true when the store welcomed it. */
    private static boolean join(final int port, final int rank, final int world, final byte[] mac,
                                final JoinProof prover) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(20_000);
            final DataInputStream in = new DataInputStream(s.getInputStream());
            final byte[] nonce = StoreFrame.readFrom(in, 4096).fields().getBytes();
            final byte[] proof = mac != null ? mac : prover.rankProof(nonce, rank, world);
            final ByteBuffer f = new StoreFrame.Builder().putInt(rank).putInt(world).putString("attacker")
                    .putBytes(proof).putBytes(JoinProof.nonce()).frame(StoreFrame.Type.JOIN, 0).toBuffer();
            s.getOutputStream().write(f.array());
            try {
                return StoreFrame.readFrom(in, 4096).type() == StoreFrame.Type.WELCOME;
            } catch (final IOException e) {
                return false;
            }
        }
    }

    private static void raw(final int port, final byte[] bytes) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            send(s, bytes, false);
            bytesUntilClosed(s);
        }
    }

    private static void idleFlood(final int port) throws IOException {
        final int before = ManagementFactory.getThreadMXBean().getThreadCount();
        final List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 300; i++) {
                final Socket s = new Socket("127.0.0.1", port);
                idle.add(s);
            }
            for (final Socket s : idle) {
                s.setSoTimeout(30_000);
                s.getInputStream().read();
            }
            assertThat(ManagementFactory.getThreadMXBean().getThreadCount() - before).isLessThan(10);
        } finally {
            for (final Socket s : idle) {
                s.close();
            }
        }
    }

    private static void slowLoris(final int port) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            final DataInputStream in = new DataInputStream(s.getInputStream());
            StoreFrame.readFrom(in, 4096);
            s.getOutputStream().write(new byte[] {0, 0, 0x0f, (byte) 0xff, 1});
            s.setSoTimeout(200);
            final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < end) {
                try {
                    s.getOutputStream().write(0);
                    if (in.read() < 0) {
                        return;
                    }
                } catch (final SocketTimeoutException e) {
                    // still open
                } catch (final IOException e) {
                    return;
                }
            }
            throw new AssertionError("a dribbling connection was not cut within 30 s");
        }
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    private static void send(final Socket s, final byte[] bytes, final boolean close) throws IOException {
        try {
            s.getOutputStream().write(bytes);
            s.getOutputStream().flush();
            if (close) {
                s.shutdownOutput();
            }
        } catch (final IOException e) {
            // the other end may already have dropped it: that is the point
        }
    }

    /** Bytes the peer sends until it closes (or 10 s of silence). */
    private static long bytesUntilClosed(final Socket s) {
        long n = 0;
        try {
            s.setSoTimeout(10_000);
            final InputStream in = s.getInputStream();
            final byte[] buf = new byte[4096];
            for (int r = in.read(buf); r >= 0; r = in.read(buf)) {
                n += r;
            }
        } catch (final IOException e) {
            // reset or silence: counted what came
        }
        return n;
    }

    private static boolean clean(final List<String> log) {
        return log.stream().noneMatch(l -> l.contains("\tat ") || l.contains("Exception in thread")
                || l.contains("Exception:"));
    }

    private static byte[] ints(final int... values) {
        final ByteBuffer b = ByteBuffer.allocate(4 * values.length);
        for (final int v : values) {
            b.putInt(v);
        }
        return b.array();
    }
}
