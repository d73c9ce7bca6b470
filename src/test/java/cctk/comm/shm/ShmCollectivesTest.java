package cctk.comm.shm;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * All-reduce, reduce-scatter and reduce x every dtype x every op x in-place/out-of-place against {@link Patterns},
 * W = 1..4 ranks: empty, one element, small and uneven, above the direct all-reduce threshold, and several MiB.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ShmCollectivesTest {

    /** 0, 1, fewer than W, uneven, and block-sized (above {@link ReducingOps#DIRECT_MAX} for every dtype). */
    static final int[] COUNTS = {0, 1, 3, 7, 70_001};

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
    void reducingCollectivesMatchTheReference(final int world) throws Exception {
        final List<List<String>> failures = ShmWorld.run(world, ShmWorld.options(dir, Duration.ofSeconds(60)),
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

    /** Several MiB per buffer: many reduction chunks per block, odd counts so blocks are uneven. */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void largeBuffersMatchTheReference(final int world) throws Exception {
        final int count = (3 << 20) / 2 + 13; // 6 MiB of float32
        final List<List<String>> failures = ShmWorld.run(world, ShmWorld.options(dir, Duration.ofSeconds(60)),
                comm -> {
                    final List<String> bad = new ArrayList<>();
                    for (final DType type : new DType[] {DType.FLOAT32, DType.BFLOAT16, DType.INT64, DType.UINT8}) {
                        for (final ReduceOp op : new ReduceOp[] {ReduceOp.SUM, ReduceOp.MIN, ReduceOp.AVG}) {
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

    /** Four times as many ranks as this host has cores (spinning off): every rank still gets its turn. */
    @Test
    void moreRanksThanCoresStillProgress() throws Exception {
        final int world = Math.max(8, 4 * Runtime.getRuntime().availableProcessors());
        final List<List<String>> failures = ShmWorld.run(world, ShmWorld.options(dir, Duration.ofSeconds(60)),
                comm -> {
                    final List<String> bad = new ArrayList<>();
                    for (int i = 0; i < 20; i++) {
                        allReduce(comm, DType.FLOAT32, ReduceOp.SUM, 7 + 9973 * (i % 3), i % 2 == 0, bad);
                        reduce(comm, DType.INT32, ReduceOp.MAX, 1001, false, i % world, bad);
                        ShmDataMovementTest.allGather(comm, DType.INT8, 999, i % 2 == 1, bad);
                        ShmDataMovementTest.sendRecvRing(comm, DType.FLOAT64, 501, false, bad);
                        comm.barrier();
                    }
                    return bad;
                });
        for (final List<String> f : failures) {
            assertThat(f).isEmpty();
        }
    }

    /** Buffers at offsets inside a larger allocation (slices), the in-place layouts of the harness. */
    @Test
    void slicesAtOffsetsReduceInPlace() throws Exception {
        final int world = 3;
        final int count = 10_007;
        final List<List<String>> failures = ShmWorld.run(world, ShmWorld.options(dir, Duration.ofSeconds(60)),
                comm -> {
                    final List<String> bad = new ArrayList<>();
                    final DType type = DType.FLOAT64;
                    final CommBuffer whole = comm.allocate(8L * (count + 24));
                    final CommBuffer b = whole.slice(8L * 11, 8L * count);
                    b.upload(Patterns.input(type, ReduceOp.SUM, comm.rank(), 0, count), 0);
                    comm.allReduce(b, b, count, type, ReduceOp.SUM);
                    ShmWorld.expect(b, 0, Patterns.reduced(type, ReduceOp.SUM, world, 0, count), "sliced", bad);
                    ShmWorld.expect(whole, 0, java.nio.ByteBuffer.allocate(88), "before the slice", bad);
                    return bad;
                });
        for (final List<String> f : failures) {
            assertThat(f).isEmpty();
        }
    }

    static void allReduce(final Communicator comm, final DType type, final ReduceOp op, final int count,
                          final boolean inPlace, final List<String> bad) {
        final CommBuffer send = ShmWorld.filled(comm, type, op, count);
        final CommBuffer recv = inPlace ? send : comm.allocate((long) count * type.bytes());
        comm.allReduce(send, recv, count, type, op);
        ShmWorld.expect(recv, 0, Patterns.reduced(type, op, comm.size(), 0, count),
                "all_reduce " + type + " " + op + " n=" + count + (inPlace ? " in-place" : "") + " W=" + comm.size(),
                bad);
    }

    static void reduceScatter(final Communicator comm, final DType type, final ReduceOp op, final int recvCount,
                              final boolean inPlace, final List<String> bad) {
        final int w = comm.size();
        final int unit = type.bytes();
        final CommBuffer send = ShmWorld.filled(comm, type, op, (long) recvCount * w);
        final CommBuffer recv = inPlace ? send.slice((long) comm.rank() * recvCount * unit, (long) recvCount * unit)
                : comm.allocate((long) recvCount * unit);
        comm.reduceScatter(send, recv, recvCount, type, op);
        ShmWorld.expect(recv, 0, Patterns.reduced(type, op, w, (long) comm.rank() * recvCount, recvCount),
                "reduce_scatter " + type + " " + op + " n=" + recvCount + (inPlace ? " in-place" : "") + " W=" + w,
                bad);
    }

    static void reduce(final Communicator comm, final DType type, final ReduceOp op, final int count,
                       final boolean inPlace, final int root, final List<String> bad) {
        final CommBuffer send = ShmWorld.filled(comm, type, op, count);
        final CommBuffer recv = inPlace ? send : comm.allocate((long) count * type.bytes());
        comm.reduce(send, recv, count, type, op, root);
        final String what = "reduce " + type + " " + op + " n=" + count + (inPlace ? " in-place" : "") + " root="
                + root + " W=" + comm.size();
        if (comm.rank() == root) {
            ShmWorld.expect(recv, 0, Patterns.reduced(type, op, comm.size(), 0, count), what, bad);
        } else if (!inPlace) {
            ShmWorld.expect(recv, 0, java.nio.ByteBuffer.allocate(count * type.bytes()), what + " (non-root)", bad);
        } else {
            ShmWorld.expect(send, 0, Patterns.input(type, op, comm.rank(), 0, count), what + " (non-root)", bad);
        }
    }
}
