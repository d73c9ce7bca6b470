package cctk.store;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.MemoryStore;
import cctk.comm.ReduceOp;
import cctk.comm.tcp.TcpCommunicator;
import cctk.comm.tcp.TcpOptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A stranger who keeps connecting to a listening socket is logged once per socket's owner (the store, each rank's
 * mesh), its repeats counted in one more line, as the README says; never a line per attempt.
 */
@Timeout(120)
class StrangerLoggingTest {

    private static final byte[] SECRET = "the-job-secret-1234".getBytes(StandardCharsets.UTF_8);
    private static final int TRIES = 6;

    @Test
    void theStoreLogsAStrangerOnceAndCountsTheRest() throws Exception {
        final List<String> log = new CopyOnWriteArrayList<>();
        try (StoreServer s = StoreServer.start("localhost", StoreTest.LOOPBACK, 0, 2, SECRET, Duration.ofSeconds(30),
                log::add)) {
            for (int i = 0; i < TRIES; i++) {
                try (Socket stranger = new Socket("127.0.0.1", s.port())) {
                    stranger.getOutputStream().write(new byte[] {0, 0, 0, 1, 9});
                    untilClosed(stranger);
                }
            }
        }
        assertThat(log).as("log: %s", log).hasSize(2);
        assertThat(log.get(1)).contains("refused " + (TRIES - 1) + " more");
        assertThat(log).noneMatch(l -> l.contains("null"));
    }

    @Test
    void aRanksMeshLogsAStrangerOnceAndCountsTheRest() throws Exception {
        final List<String> log = new CopyOnWriteArrayList<>();
        final TcpOptions options = new TcpOptions(List.of(), false, Duration.ofSeconds(20),
                TcpOptions.DEFAULT_SOCKET_BUFFER, "log", SECRET, log::add);
        final MemoryStore store = new MemoryStore(2, Duration.ofSeconds(30));
        final ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            final Future<Float> rank0 = pool.submit(() -> sum(options, 0, store));
            final String[] endpoint = new String(store.get("log/tcp/endpoints/0"), StandardCharsets.UTF_8)
                    .split("\\|");
            for (int i = 0; i < TRIES; i++) {
                try (Socket stranger = new Socket()) {
                    stranger.connect(new InetSocketAddress(endpoint[0], Integer.parseInt(endpoint[1])), 5_000);
                    stranger.getOutputStream().write(new byte[76]);
                    untilClosed(stranger);
                }
            }
            final Future<Float> rank1 = pool.submit(() -> sum(options, 1, store));
            assertThat(rank0.get(60, TimeUnit.SECONDS)).isEqualTo(1f);
            assertThat(rank1.get(60, TimeUnit.SECONDS)).isEqualTo(1f);
        } finally {
            pool.shutdownNow();
        }
        assertThat(log).as("log: %s", log).hasSize(2);
        assertThat(log.get(0)).contains("dropped a connection");
        assertThat(log.get(1)).contains("dropped " + (TRIES - 1) + " more");
    }

    private static float sum(final TcpOptions options, final int rank, final MemoryStore store) {
        try (TcpCommunicator comm = TcpCommunicator.connect(options, rank, 2, store)) {
            final CommBuffer b = comm.allocate(4);
            final java.nio.ByteBuffer h = java.nio.ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                    .putFloat(0, rank);
            b.upload(h, 0);
            comm.allReduce(b, b, 1, DType.FLOAT32, ReduceOp.SUM);
            h.clear();
            b.download(0, h);
            return h.getFloat(0);
        }
    }

    private static void untilClosed(final Socket s) {
        try {
            s.setSoTimeout(10_000);
            final InputStream in = s.getInputStream();
            final byte[] buf = new byte[256];
            while (in.read(buf) >= 0) {
                continue;
            }
        } catch (final IOException e) {
            // reset: closed too
        }
    }
}
