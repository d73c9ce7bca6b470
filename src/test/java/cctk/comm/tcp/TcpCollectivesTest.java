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

/**
 * Every reducing collective x dtype x op x in-place/out-of-place against the reference in {@link ReferenceData}, for
 * W = 1..4 ranks over loopback sockets, with an empty, a small uneven and a ring-sized count.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class TcpCollectivesTest {

    /** 0, small and not divisible by W, and large enough for the ring (above the direct threshold). */
    static final int[] COUNTS = {0, 7, 70_001};

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void reducingCollectivesMatchTheReference(final int world) throws Exception {
        final List<List<String>> failures = LocalWorld.run(world, LocalWorld.options(Duration.ofSeconds(30)),
                comm -> {
                    final List<String> bad = new ArrayList<>();
                    for (final DType type : DType.values()) {
                        for (final ReduceOp op : ReduceOp.values()) {
                            for (final int count : COUNTS) {
                                for (final boolean inPlace : new boolean[] {false, true}) {
                                    allReduce(comm, type, op, count, inPlace, bad);
                                    reduceScatter(comm, type, op, count / world + count % 3, inPlace, bad);
                                    reduce(comm, type, op, count, inPlace, (count + 1) % world, bad);
                                }
                            }
                        }
                    }
                    return bad;
                });
        for (final List<String> f : failures) {
            assertThat(f).isEmpty();
        }
    }

    static void allReduce(final TcpCommunicator comm, final DType type, final ReduceOp op, final int count,
                                  final boolean inPlace, final List<String> bad) {
        final CommBuffer send = filled(comm, type, op, count);
        final CommBuffer recv = inPlace ? send : comm.allocate((long) count * type.bytes());
        comm.allReduce(send, recv, count, type, op);
        final int w = comm.size();
        expect(recv, ReferenceData.reduced(type, op, w, 0, count),
                "all_reduce " + type + " " + op + " n=" + count + (inPlace ? " in-place" : "") + " W=" + w, bad);
    }

    static void reduceScatter(final TcpCommunicator comm, final DType type, final ReduceOp op,
                                      final int recvCount, final boolean inPlace, final List<String> bad) {
        final int w = comm.size();
        final int unit = type.bytes();
        final CommBuffer send = filled(comm, type, op, (long) recvCount * w);
        final CommBuffer recv = inPlace ? send.slice((long) comm.rank() * recvCount * unit, (long) recvCount * unit)
                : comm.allocate((long) recvCount * unit);
        comm.reduceScatter(send, recv, recvCount, type, op);
        expect(recv, ReferenceData.reduced(type, op, w, (long) comm.rank() * recvCount, recvCount),
                "reduce_scatter " + type + " " + op + " n=" + recvCount + (inPlace ? " in-place" : "") + " W=" + w,
                bad);
    }

    static void reduce(final TcpCommunicator comm, final DType type, final ReduceOp op, final int count,
                               final boolean inPlace, final int root, final List<String> bad) {
        final CommBuffer send = filled(comm, type, op, count);
        final CommBuffer recv = inPlace ? send : comm.allocate((long) count * type.bytes());
        comm.reduce(send, recv, count, type, op, root);
        if (comm.rank() == root) {
            final int w = comm.size();
            expect(recv, ReferenceData.reduced(type, op, w, 0, count), "reduce " + type + " " + op + " n=" + count
                    + (inPlace ? " in-place" : "") + " root=" + root + " W=" + w, bad);
        }
    }

    /** Blocks several times the staging ring, so received bytes wrap around it, for 1-, 2- and 8-byte elements. */
    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void reductionsLongerThanTheStagingRingWrapAroundIt(final int world) throws Exception {
        final int count = 4 * Transfers.STAGE + 5;
        final List<List<String>> failures = LocalWorld.run(world, LocalWorld.options(Duration.ofSeconds(30)),
                comm -> {
                    final List<String> bad = new ArrayList<>();
                    for (final DType type : new DType[] {DType.INT8, DType.FLOAT16, DType.FLOAT64}) {
                        for (final ReduceOp op : new ReduceOp[] {ReduceOp.SUM, ReduceOp.MAX}) {
                            for (final boolean inPlace : new boolean[] {false, true}) {
                                allReduce(comm, type, op, count, inPlace, bad);
                                reduceScatter(comm, type, op, count / world, inPlace, bad);
                                reduce(comm, type, op, count, inPlace, world - 1, bad);
                            }
                        }
                    }
                    return bad;
                });
        for (final List<String> f : failures) {
            assertThat(f).isEmpty();
        }
    }

    /** A buffer of {@code count} elements holding this rank's inputs. */
    static CommBuffer filled(final TcpCommunicator comm, final DType type, final ReduceOp op, final long count) {
        final CommBuffer b = comm.allocate(count * type.bytes());
        b.upload(ReferenceData.inputs(type, op, comm.rank(), 0, count), 0);
        return b;
    }

    /** Adds a line to {@code bad} unless the first bytes of {@code b} equal {@code want} (position to limit). */
    static void expect(final CommBuffer b, final ByteBuffer want, final String what, final List<String> bad) {
        final ByteBuffer got = ByteBuffer.allocate(want.remaining());
        b.download(0, got);
        got.flip();
        if (!got.equals(want)) {
            bad.add(what + ": first wrong byte " + got.mismatch(want));
        }
    }
}
