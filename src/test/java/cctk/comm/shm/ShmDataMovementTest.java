package cctk.comm.shm;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** All-gather, broadcast, all-to-all(v), send/recv and barrier for every dtype, W = 1..4, both placements. */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ShmDataMovementTest {

    /** No reduction: the data-movement input pattern. */
    private static final ReduceOp VALUES = null;

    private Path dir;

    @BeforeEach
    void directory() throws Exception {
        dir = ShmWorld.directory();
    }

    @AfterEach
    void clean() throws Exception {
        assertThat(ShmWorld.files(dir)).as("segment files left after close").isEmpty();
        ShmWorld.delete(dir);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void dataMovementMatchesTheReference(final int world) throws Exception {
        final List<List<String>> failures = ShmWorld.run(world, ShmWorld.options(dir, Duration.ofSeconds(60)),
                comm -> {
                    final List<String> bad = new ArrayList<>();
                    for (final DType type : DType.values()) {
                        for (final int count : new int[] {0, 1, 5, 70_001, 1 << 20}) {
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

    static void allGather(final Communicator comm, final DType type, final int n, final boolean inPlace,
                          final List<String> bad) {
        final int w = comm.size();
        final int unit = type.bytes();
        final CommBuffer recv = comm.allocate((long) n * w * unit);
        final CommBuffer send = inPlace ? recv.slice((long) comm.rank() * n * unit, (long) n * unit)
                : comm.allocate((long) n * unit);
        send.upload(Patterns.input(type, VALUES, comm.rank(), 0, n), 0);
        comm.allGather(send, recv, n, type);
        for (int p = 0; p < w; p++) {
            ShmWorld.expect(recv, (long) p * n * unit, Patterns.input(type, VALUES, p, 0, n),
                    "all_gather " + type + " n=" + n + (inPlace ? " in-place" : "") + " W=" + w + " block " + p, bad);
        }
    }

    static void broadcast(final Communicator comm, final DType type, final int n, final boolean inPlace,
                          final int root, final List<String> bad) {
        final CommBuffer send = ShmWorld.filled(comm, type, VALUES, n);
        final CommBuffer recv = inPlace ? send : comm.allocate((long) n * type.bytes());
        comm.broadcast(send, recv, n, type, root);
        ShmWorld.expect(recv, 0, Patterns.input(type, VALUES, root, 0, n),
                "broadcast " + type + " n=" + n + " root=" + root + (inPlace ? " in-place" : ""), bad);
    }

    static void allToAll(final Communicator comm, final DType type, final int per, final boolean inPlace,
                         final List<String> bad) {
        final int w = comm.size();
        final int unit = type.bytes();
        final CommBuffer send = ShmWorld.filled(comm, type, VALUES, (long) per * w);
        final CommBuffer recv = inPlace ? send : comm.allocate((long) per * w * unit);
        comm.allToAll(send, recv, per, type);
        for (int p = 0; p < w; p++) {
            ShmWorld.expect(recv, (long) p * per * unit, Patterns.input(type, VALUES, p, (long) comm.rank() * per,
                    per), "alltoall " + type + " per=" + per + (inPlace ? " in-place" : "") + " block " + p, bad);
        }
    }

    /** Rank p sends (p + 2q + n) % 4 elements to q, at displacements with a gap of one element (left alone). */
    static void allToAllv(final Communicator comm, final DType type, final int n, final List<String> bad) {
        final int w = comm.size();
        final int rank = comm.rank();
        final int unit = type.bytes();
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
        final CommBuffer send = ShmWorld.filled(comm, type, VALUES, s);
        final CommBuffer recv = comm.allocate(r * unit);
        final ByteBuffer marks = ByteBuffer.allocate((int) r * unit).order(ByteOrder.LITTLE_ENDIAN);
        while (marks.hasRemaining()) {
            marks.put((byte) 0x5a);
        }
        recv.upload(marks.flip(), 0);
        comm.allToAllv(send, sc, sd, recv, rc, rd, type);
        for (int p = 0; p < w; p++) {
            long senderDispl = 0;
            for (int q = 0; q < rank; q++) {
                senderDispl += vcount(p, q, n) + 1;
            }
            ShmWorld.expect(recv, rd[p] * unit, Patterns.input(type, VALUES, p, senderDispl, rc[p]),
                    "alltoallv " + type + " n=" + n + " from " + p, bad);
            final ByteBuffer gap = ByteBuffer.allocate(unit);
            while (gap.hasRemaining()) {
                gap.put((byte) 0x5a);
            }
            ShmWorld.expect(recv, (rd[p] + rc[p]) * unit, gap.flip(), "alltoallv gap after block " + p, bad);
        }
    }

    static long vcount(final int from, final int to, final int n) {
        return (from + 2L * to + n) % 4 + (n > 1000 ? n / 7 : 0);
    }

    /** Every rank sends to rank+1 and receives from rank-1; in place: one buffer both ways. */
    static void sendRecvRing(final Communicator comm, final DType type, final int n, final boolean inPlace,
                             final List<String> bad) {
        final int w = comm.size();
        final CommBuffer send = ShmWorld.filled(comm, type, VALUES, n);
        final CommBuffer recv = inPlace ? send : comm.allocate((long) n * type.bytes());
        final int from = (comm.rank() + w - 1) % w;
        comm.sendRecv(send, (comm.rank() + 1) % w, recv, from, n, type);
        ShmWorld.expect(recv, 0, Patterns.input(type, VALUES, from, 0, n),
                "sendrecv " + type + " n=" + n + (inPlace ? " in-place" : ""), bad);
    }
}
