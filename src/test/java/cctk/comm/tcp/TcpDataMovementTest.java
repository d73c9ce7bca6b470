package cctk.comm.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** All-gather, broadcast, all-to-all(v), send/recv and barrier for every dtype, W = 1..4, both placements. */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class TcpDataMovementTest {

    /** No reduction: the data-movement input pattern. */
    private static final ReduceOp VALUES = null;

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void dataMovementMatchesTheReference(final int world) throws Exception {
        final List<List<String>> failures = LocalWorld.run(world, LocalWorld.options(Duration.ofSeconds(30)),
                comm -> {
                    final List<String> bad = new ArrayList<>();
                    for (final DType type : DType.values()) {
                        for (final int count : new int[] {0, 5, 70_001}) {
                            for (final boolean inPlace : new boolean[] {false, true}) {
                                allGather(comm, type, count, inPlace, bad);
                                broadcast(comm, type, count, inPlace, (count + 2) % world, bad);
                                allToAll(comm, type, count / world + 1, inPlace, bad);
                                sendRecvRing(comm, type, count, inPlace, bad);
                            }
                            allToAllv(comm, type, count, bad);
                            comm.barrier();
                        }
                    }
                    return bad;
                });
        for (final List<String> f : failures) {
            assertThat(f).isEmpty();
        }
    }

    static void allGather(final TcpCommunicator comm, final DType type, final int n, final boolean inPlace,
                                  final List<String> bad) {
        final int w = comm.size();
        final int unit = type.bytes();
        final CommBuffer recv = comm.allocate((long) n * w * unit);
        final CommBuffer send = inPlace ? recv.slice((long) comm.rank() * n * unit, (long) n * unit)
                : comm.allocate((long) n * unit);
        send.upload(ReferenceData.inputs(type, VALUES, comm.rank(), 0, n), 0);
        comm.allGather(send, recv, n, type);
        final ByteBuffer want = ReferenceData.allocate((long) n * w, type);
        for (int p = 0; p < w; p++) {
            ReferenceData.appendInputs(want, type, VALUES, p, 0, n);
        }
        TcpCollectivesTest.expect(recv, want.flip(),
                "all_gather " + type + " n=" + n + (inPlace ? " in-place" : "") + " W=" + w, bad);
    }

    static void broadcast(final TcpCommunicator comm, final DType type, final int n, final boolean inPlace,
                                  final int root, final List<String> bad) {
        final CommBuffer send = TcpCollectivesTest.filled(comm, type, VALUES, n);
        final CommBuffer recv = inPlace ? send : comm.allocate((long) n * type.bytes());
        comm.broadcast(send, recv, n, type, root);
        TcpCollectivesTest.expect(recv, ReferenceData.inputs(type, VALUES, root, 0, n),
                "broadcast " + type + " n=" + n + " root=" + root + (inPlace ? " in-place" : ""), bad);
    }

    private static void allToAll(final TcpCommunicator comm, final DType type, final int per, final boolean inPlace,
                                 final List<String> bad) {
        final int w = comm.size();
        final CommBuffer send = TcpCollectivesTest.filled(comm, type, VALUES, (long) per * w);
        final CommBuffer recv = inPlace ? send : comm.allocate((long) per * w * type.bytes());
        comm.allToAll(send, recv, per, type);
        final ByteBuffer want = ReferenceData.allocate((long) per * w, type);
        for (int p = 0; p < w; p++) {
            ReferenceData.appendInputs(want, type, VALUES, p, (long) comm.rank() * per, per);
        }
        TcpCollectivesTest.expect(recv, want.flip(),
                "alltoall " + type + " per=" + per + (inPlace ? " in-place" : ""), bad);
    }

    /** Rank p sends (p + 2q + n) % 4 elements to q, at displacements with a gap of one element. */
    private static void allToAllv(final TcpCommunicator comm, final DType type, final int n,
                                  final List<String> bad) {
        final int w = comm.size();
        final int rank = comm.rank();
        final long[] sc = new long[w];
        final long[] sd = new long[w];
        final long[] rc = new long[w];
        final long[] rd = new long[w];
        long s = 0;
        long r = 0;
        for (int p = 0; p < w; p++) {
            sc[p] = vcount(rank, p, n);
            sd[p] = s;
            s += sc[p] + 1;
            rc[p] = vcount(p, rank, n);
            rd[p] = r;
            r += rc[p] + 1;
        }
        final CommBuffer send = TcpCollectivesTest.filled(comm, type, VALUES, s);
        final CommBuffer recv = comm.allocate(r * type.bytes());
        comm.allToAllv(send, sc, sd, recv, rc, rd, type);
        final ByteBuffer want = ReferenceData.allocate(r, type);
        for (int p = 0; p < w; p++) {
            long senderDispl = 0;
            for (int q = 0; q < rank; q++) {
                senderDispl += vcount(p, q, n) + 1;
            }
            ReferenceData.appendInputs(want, type, VALUES, p, senderDispl, rc[p]);
            want.position(want.position() + type.bytes()); // the gap stays as allocated: zero
        }
        TcpCollectivesTest.expect(recv, want.flip(), "alltoallv " + type + " n=" + n, bad);
    }

    private static long vcount(final int from, final int to, final int n) {
        return n == 0 ? 0 : (from + 2L * to + n) % 4 + (n > 1000 ? 3000L * (to + 1) : 0);
    }

    /** In place, a message larger than the socket buffers: the receive must not overwrite bytes not yet sent. */
    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void inPlaceSendRecvLargerThanTheSocketBuffersSendsTheOriginal(final int world) throws Exception {
        final int count = 3 * TcpOptions.DEFAULT_SOCKET_BUFFER / 4 + 7;
        final List<List<String>> failures = LocalWorld.run(world, LocalWorld.options(Duration.ofSeconds(30)),
                comm -> {
                    final List<String> bad = new ArrayList<>();
                    sendRecvRing(comm, DType.FLOAT32, count, true, bad);
                    return bad;
                });
        for (final List<String> f : failures) {
            assertThat(f).isEmpty();
        }
    }

    static void sendRecvRing(final TcpCommunicator comm, final DType type, final int n, final boolean inPlace,
                                     final List<String> bad) {
        final int w = comm.size();
        final int rank = comm.rank();
        final CommBuffer send = TcpCollectivesTest.filled(comm, type, VALUES, n);
        final CommBuffer recv = inPlace ? send : comm.allocate((long) n * type.bytes());
        final int from = Math.floorMod(rank - 1, w);
        comm.sendRecv(send, (rank + 1) % w, recv, from, n, type);
        TcpCollectivesTest.expect(recv, ReferenceData.inputs(type, VALUES, from, 0, n), "sendrecv " + type + " n=" + n
                + (inPlace ? " in-place" : ""), bad);
    }
}
