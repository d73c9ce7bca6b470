package cctk.store;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.AdversarialTally;
import cctk.AdversarialTally.Outcome;
import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.comm.tcp.TcpCommunicator;
import cctk.comm.tcp.TcpOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A persistent stranger floods every listening socket of a job (the store and each rank's tcp mesh) with hundreds
 * of silent connections, reopening each one the moment it is closed. The job must still join, connect and compute
 * right, and no rank may be blamed. (With a fixed cap of 64 connections in their handshake and new ones refused,
 * the stranger's reconnects won every freed slot and ranks never joined.) Area {@code floods}.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FloodTest {

    private static final AdversarialTally TALLY = new AdversarialTally("floods");
    private static final byte[] SECRET = "flood-test-secret".getBytes(StandardCharsets.UTF_8);
    private static final int WORLD = 4;

    @AfterAll
    static void report() {
        TALLY.report();
        assertThat(TALLY.failures()).isEmpty();
    }

    @Test
    void threeHundredSilentConnectionsOnEveryPortStopNothing() throws Exception {
        run("300 silent connections per port, reconnected on close (store and mesh)", 300,
                StoreHandshakes.MAX_PENDING);
    }

    @Test
    void aStoreFloodedBeyondItsCapEvictsStrangersNotRanks() throws Exception {
        run("store capped at 64 in their handshake, 300 strangers reconnecting", 300, 64);
    }

    private static void run(final String input, final int perPort, final int storeCap) throws Exception {
        final List<String> log = new CopyOnWriteArrayList<>();
        final Duration timeout = Duration.ofSeconds(15);
        try (StoreServer server = StoreServer.start("localhost", StoreTest.LOOPBACK, 0, WORLD, SECRET, timeout,
                log::add, storeCap);
             PersistentStranger stranger = new PersistentStranger(perPort, Set.of())) {
            waitForFlood(stranger, perPort);
            final ExecutorService pool = Executors.newFixedThreadPool(WORLD);
            final List<Future<String>> ranks = new ArrayList<>();
            for (int r = 0; r < WORLD; r++) {
                final int rank = r;
                ranks.add(pool.submit(() -> rank(server.port(), rank, timeout, log)));
            }
            final List<String> results = new ArrayList<>();
            Outcome outcome = Outcome.HANDLED;
            try {
                for (final Future<String> f : ranks) {
                    results.add(f.get(120, TimeUnit.SECONDS));
                }
            } catch (final java.util.concurrent.ExecutionException e) {
                results.add("failed: " + e.getCause().getMessage());
                outcome = Outcome.CLEAR_ERROR;
            } finally {
                pool.shutdownNow();
            }
            TALLY.record(input + " (" + stranger.connects() + " stranger connections)",
                    outcome == Outcome.HANDLED && results.stream().allMatch("right"::equals) ? Outcome.HANDLED
                            : Outcome.ROWS_LOST);
            assertThat(results).as("every rank of the flooded job; log: %s", log).containsOnly("right");
            if (storeCap < perPort) {
                // the stranger learns of its evicted connections only when it next looks at them: give it a moment
                final long until = System.nanoTime() + 5_000_000_000L;
                while (stranger.reconnects() == 0 && System.nanoTime() < until) {
                    Thread.sleep(10);
                }
                assertThat(stranger.reconnects()).as("the oldest strangers gave way and reconnected").isPositive();
            }
            assertThat(log).as("no rank blamed").noneMatch(l -> l.matches(".*\\branks? [0-9, ]+ did not join.*")
                    || l.contains("died"));
        }
    }

    private static void waitForFlood(final PersistentStranger stranger, final int perPort)
            throws InterruptedException {
        final long until = System.nanoTime() + 10_000_000_000L;
        while (stranger.connects() < perPort && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertThat(stranger.connects()).as("the stranger holds its connections before the ranks start")
                .isGreaterThanOrEqualTo(perPort);
    }

    /** One rank: joins the store, connects the mesh, runs all-reduces and an all-gather; "right" or what was wrong. */
    private static String rank(final int port, final int rank, final Duration timeout, final List<String> log) {
        try (StoreClient store = StoreClient.connect("127.0.0.1", port, rank, WORLD, "host" + rank, SECRET,
                timeout);
             TcpCommunicator comm = TcpCommunicator.connect(new TcpOptions(List.of(), false, timeout,
                     TcpOptions.DEFAULT_SOCKET_BUFFER, "flood", SECRET, log::add), rank, WORLD, store)) {
            final StringBuilder wrong = new StringBuilder();
            for (final int count : new int[] {256, 1 << 18}) {
                final CommBuffer in = comm.allocate(4L * count);
                final CommBuffer out = comm.allocate(4L * count);
                final ByteBuffer b = ByteBuffer.allocate(4 * count).order(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < count; i++) {
                    b.putFloat(rank + i % 7);
                }
                in.upload(b.flip(), 0);
                comm.allReduce(in, out, count, DType.FLOAT32, ReduceOp.SUM);
                final ByteBuffer got = ByteBuffer.allocate(4 * count).order(ByteOrder.LITTLE_ENDIAN);
                out.download(0, got);
                for (int i = 0; i < count; i++) {
                    final float want = WORLD * (i % 7) + WORLD * (WORLD - 1) / 2f;
                    if (got.getFloat(4 * i) != want) {
                        wrong.append("all_reduce n=").append(count).append(" element ").append(i);
                        break;
                    }
                }
                comm.allGather(in.slice(0, 4), out.slice(0, 4L * WORLD), 1, DType.FLOAT32);
                out.download(0, got.clear());
                for (int p = 0; p < WORLD; p++) {
                    if (got.getFloat(4 * p) != p) {
                        wrong.append("all_gather from rank ").append(p);
                    }
                }
            }
            return wrong.length() == 0 ? "right" : "rank " + rank + " wrong: " + wrong;
        }
    }
}
