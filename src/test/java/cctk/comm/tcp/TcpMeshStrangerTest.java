package cctk.comm.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;

import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.MemoryStore;
import cctk.comm.ReduceOp;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A stranger reaches rank 0's mesh port before the real rank 1 (the attack: it polls for the job's new
 * listening sockets); the run must still complete with correct data, the stranger taken for nobody.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TcpMeshStrangerTest {

    @Test
    void aForgedHelloBeforeTheRealPeerIsDropped() throws Exception {
        runWithStranger(ByteBuffer.allocate(12).putInt(1).putInt(0).putInt(2).array(), true);
    }

    @Test
    void aBogusHelloDoesNotKillTheRun() throws Exception {
        runWithStranger("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII), true);
    }

    @Test
    void aSilentStrangerDoesNotBlockTheAcceptor() throws Exception {
        runWithStranger(new byte[0], false);
    }

    @Test
    void aLocalMeshListensOn127001Only() throws Exception {
        final TcpOptions options = MeshWorlds.options();
        final MemoryStore store = new MemoryStore(2, Duration.ofSeconds(30));
        final ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            final Future<Float> rank0 = pool.submit(() -> sumOnRank(options, 0, store));
            final String[] endpoint = new String(store.get(options.keyPrefix() + "/tcp/endpoints/0"),
                    StandardCharsets.UTF_8).split("\\|");
            assertThat(endpoint[0]).isEqualTo("127.0.0.1");
            final List<String> listening = new ArrayList<>();
            for (final String file : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
                for (final String line : Files.readAllLines(Path.of(file))) {
                    final String[] f = line.trim().split("\\s+");
                    if (f.length > 3 && "0A".equals(f[3])
                            && f[1].endsWith(String.format(":%04X", Integer.parseInt(endpoint[1])))) {
                        listening.add(f[1]);
                    }
                }
            }
            assertThat(listening).isNotEmpty()
                    .allSatisfy(l -> assertThat(l).matches("(0100007F|0000000000000000FFFF00000100007F):.*"));
            assertThat(pool.submit(() -> sumOnRank(options, 1, store)).get(60, TimeUnit.SECONDS)).isEqualTo(1f);
            assertThat(rank0.get(60, TimeUnit.SECONDS)).isEqualTo(1f);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSecondProvenHelloForAConnectedRankIsDropped() throws Exception {
        final List<String> log = new java.util.concurrent.CopyOnWriteArrayList<>();
        final TcpOptions options = new TcpOptions(List.of(), false, Duration.ofSeconds(3), 0, "dup",
                LocalWorld.SECRET, log::add);
        final MemoryStore store = new MemoryStore(3, Duration.ofSeconds(30));
        final ExecutorService pool = Executors.newFixedThreadPool(1);
        try {
            final Future<?> rank0 = pool.submit(() -> {
                try (TcpCommunicator c = TcpCommunicator.connect(options, 0, 3, store)) {
                    c.barrier(); // accepts ranks 1 and 2
                }
            });
            final String[] endpoint = new String(store.get("dup/tcp/endpoints/0"), StandardCharsets.UTF_8)
                    .split("\\|");
            final InetSocketAddress at = new InetSocketAddress(endpoint[0], Integer.parseInt(endpoint[1]));
            final MeshHello hello = new MeshHello(LocalWorld.SECRET, "dup");
            try (Socket first = new Socket(); Socket second = new Socket()) {
                first.connect(at, 5_000);
                assertThat(answerTo(first, hello)).as("the first rank 1 is answered").hasSize(32);
                second.connect(at, 5_000);
                assertThat(answerTo(second, hello)).as("a second rank 1 is dropped unanswered").isEmpty();
            }
            assertThat(log).anySatisfy(l -> assertThat(l).contains("rank 1 is already connected on stripe 0"));
            assertThatThrownBy(() -> rank0.get(30, TimeUnit.SECONDS)).hasMessageContaining("rank 2");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anAcceptorThatCannotProveItselfIsRefusedByTheDialer() throws Exception {
        final MemoryStore store = new MemoryStore(2, Duration.ofSeconds(30));
        try (ServerSocket fake = new ServerSocket(0, 5, java.net.InetAddress.getLoopbackAddress())) {
            store.set("sec/tcp/endpoints/0", ("127.0.0.1|" + fake.getLocalPort()).getBytes(StandardCharsets.UTF_8));
            final ExecutorService pool = Executors.newFixedThreadPool(1);
            try {
                final Future<?> imposter = pool.submit(() -> {
                    try (Socket s = fake.accept()) {
                        s.getOutputStream().write(new byte[32]);
                        s.getInputStream().readNBytes(MeshHello.HELLO_BYTES);
                        s.getOutputStream().write(new byte[32]);
                        s.getInputStream().read();
                    }
                    return null;
                });
                assertThatThrownBy(() -> TcpCommunicator.connect(MeshWorlds.options(), 1, 2, store).barrier())
                        .isInstanceOf(CctkException.class)
                        .hasMessageContaining("did not prove it belongs to this job");
                imposter.get(10, TimeUnit.SECONDS);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** Completes a hello as rank 1, stripe 0 of 3; the acceptor's answer, empty when it closed instead. */
    private static byte[] answerTo(final Socket s, final MeshHello hello) throws Exception {
        s.setSoTimeout(10_000);
        final byte[] challenge = s.getInputStream().readNBytes(MeshHello.CHALLENGE_BYTES);
        final ByteBuffer h = hello.hello(challenge, 1, 0, 3, 0, cctk.comm.JobProof.nonce());
        s.getOutputStream().write(h.array(), 0, h.limit());
        return s.getInputStream().readNBytes(MeshHello.ANSWER_BYTES);
    }

    private static void runWithStranger(final byte[] hello, final boolean close) throws Exception {
        final TcpOptions options = MeshWorlds.options();
        final MemoryStore store = new MemoryStore(2, Duration.ofSeconds(30));
        final ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            final Future<Float> rank0 = pool.submit(() -> sumOnRank(options, 0, store));
            final String[] endpoint = new String(store.get(options.keyPrefix() + "/tcp/endpoints/0"),
                    StandardCharsets.UTF_8).split("\\|");
            try (Socket stranger = new Socket()) {
                stranger.connect(new InetSocketAddress(endpoint[0], Integer.parseInt(endpoint[1])), 5_000);
                final OutputStream out = stranger.getOutputStream();
                out.write(hello);
                out.flush();
                if (close) {
                    stranger.shutdownOutput();
                }
                final Future<Float> rank1 = pool.submit(() -> sumOnRank(options, 1, store));
                assertThat(rank0.get(60, TimeUnit.SECONDS)).isEqualTo(1f);
                assertThat(rank1.get(60, TimeUnit.SECONDS)).isEqualTo(1f);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** All-reduces {rank} over the pair: both ranks see 0 + 1. */
    static float sumOnRank(final TcpOptions options, final int rank, final MemoryStore store) {
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

}
