package cctk.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.SocketTimeoutException;
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

/** Strangers that connect to the store and never join cost it no thread, and are cut at the handshake deadline. */
@Timeout(120)
class StoreStrangersTest {

    private static final byte[] SECRET = "s3cret-of-the-job".getBytes(StandardCharsets.UTF_8);
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> open = new ArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void tearDown() throws Exception {
        for (final AutoCloseable c : open) {
            c.close();
        }
        pool.shutdownNow();
    }

    @Test
    void fiveHundredIdleStrangersCostNoThreadsAndTheRanksStillJoin() throws Exception {
        final StoreServer s = StoreServer.start("localhost", StoreTest.LOOPBACK, 0, 2, SECRET, Duration.ofSeconds(60), log::add);
        open.add(s);
        final int before = ManagementFactory.getThreadMXBean().getThreadCount();
        final List<Socket> strangers = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            final Socket stranger = new Socket("127.0.0.1", s.port());
            open.add(stranger);
            strangers.add(stranger);
        }
        for (final Socket stranger : strangers) {
            awaitServed(stranger);
        }
        final int during = ManagementFactory.getThreadMXBean().getThreadCount();
        System.out.println("store threads: " + before + " live before, " + during + " with 500 idle strangers");
        assertThat(during - before).as("threads added by 500 idle connections").isLessThan(10);
        final Future<byte[]> rank1 = pool.submit(() -> {
            final StoreClient c = StoreClient.connect("127.0.0.1", s.port(), 1, 2, "h1", SECRET,
                    Duration.ofSeconds(60));
            open.add(0, c);
            c.set("one", new byte[] {1});
            return c.get("zero");
        });
        final StoreClient c0 = StoreClient.connect("127.0.0.1", s.port(), 0, 2, "h0", SECRET, Duration.ofSeconds(60));
        open.add(0, c0);
        c0.set("zero", new byte[] {0});
        assertThat(c0.get("one")).containsExactly(1);
        assertThat(rank1.get(60, TimeUnit.SECONDS)).containsExactly(0);
        assertThat(s.failure()).isNull();
        assertThat(ManagementFactory.getThreadMXBean().getThreadCount() - before).isLessThan(12);
    }

    @Test
    void aStrangerThatDribblesBytesIsCutAtTheHandshakeDeadline() throws Exception {
        final StoreServer s = StoreServer.start("localhost", StoreTest.LOOPBACK, 0, 2, SECRET, Duration.ofSeconds(90), log::add);
        open.add(s);
        try (Socket loris = new Socket("127.0.0.1", s.port())) {
            final DataInputStream in = new DataInputStream(loris.getInputStream());
            StoreFrame.readFrom(in, 4096);
            final OutputStream out = loris.getOutputStream();
            out.write(new byte[] {0, 0, 0x0f, (byte) 0xff, (byte) StoreFrame.Type.JOIN.ordinal()});
            loris.setSoTimeout(200);
            final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            boolean cut = false;
            while (!cut && System.nanoTime() < end) {
                try {
                    out.write(0);
                    cut = in.read() < 0;
                } catch (final SocketTimeoutException e) {
                    // still open: dribble on (the read's timeout paces the bytes)
                } catch (final IOException e) {
                    cut = true;
                }
            }
            assertThat(cut).as("the server closed the dribbling connection within 30 s of a 90 s store timeout")
                    .isTrue();
        }
        assertThat(log).anySatisfy(l -> assertThat(l).contains("refused", "did not join within"));
    }

    /** Returns once the server has taken the connection into its handshake (sent the challenge) or closed it. */
    private static void awaitServed(final Socket stranger) throws IOException {
        stranger.setSoTimeout(30_000);
        final InputStream in = stranger.getInputStream();
        in.read();
    }
}
