package cctk.comm.shm;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.MemoryStore;
import cctk.comm.ReduceOp;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Buffers the communicator did not allocate (plain direct memory, slices of it, another shm communicator's buffers)
 * run every collective through staging, with the same results and placements as its own buffers.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ForeignBufferTest {

    private Path dir;

    @BeforeEach
    void directory() throws Exception {
        dir = ShmWorld.directory();
    }

    @AfterEach
    void clean() throws Exception {
        assertThat(ShmWorld.files(dir)).isEmpty();
        ShmWorld.delete(dir);
    }

    @Test
    void plainDirectBuffersRunEveryCollective() throws Exception {
        final List<List<String>> failures = ShmWorld.run(3, ShmWorld.options(dir, Duration.ofSeconds(60)),
                comm -> everything(new Allocating(comm, ForeignBuffer::allocate)));
        for (final List<String> f : failures) {
            assertThat(f).isEmpty();
        }
    }

    /** A second group on the same ranks (its own key prefix): its buffers are foreign to the first. */
    @Test
    void anotherCommunicatorsBuffersAreForeign() throws Exception {
        final MemoryStore store = new MemoryStore(2, Duration.ofSeconds(30));
        final ShmOptions other = ShmOptions.local(Duration.ofSeconds(60), "other", ShmWorld.SECRET).inDirectory(dir);
        final List<List<String>> failures = ShmWorld.run(2, ShmWorld.options(dir, Duration.ofSeconds(60)),
                comm -> {
                    try (ShmCommunicator second = ShmCommunicator.connect(other, comm.rank(), 2, store)) {
                        return everything(new Allocating(comm, second::allocate));
                    }
                });
        for (final List<String> f : failures) {
            assertThat(f).isEmpty();
        }
    }

    private static List<String> everything(final Communicator comm) {
        final List<String> bad = new ArrayList<>();
        for (final DType type : new DType[] {DType.FLOAT32, DType.BFLOAT16, DType.UINT8, DType.INT64}) {
            for (final int count : new int[] {1, 7, 70_001}) {
                for (final boolean inPlace : new boolean[] {false, true}) {
                    ShmCollectivesTest.allReduce(comm, type, ReduceOp.SUM, count, inPlace, bad);
                    ShmCollectivesTest.reduceScatter(comm, type, ReduceOp.MAX, count / 3 + 1, inPlace, bad);
                    ShmCollectivesTest.reduce(comm, type, ReduceOp.AVG, count, inPlace, count % comm.size(), bad);
                    ShmDataMovementTest.allGather(comm, type, count, inPlace, bad);
                    ShmDataMovementTest.broadcast(comm, type, count, inPlace, 1 % comm.size(), bad);
                    ShmDataMovementTest.allToAll(comm, type, count / 3 + 1, inPlace, bad);
                    ShmDataMovementTest.sendRecvRing(comm, type, count, inPlace, bad);
                }
                ShmDataMovementTest.allToAllv(comm, type, count, bad);
            }
        }
        return bad;
    }

    /** The shm communicator, but {@link #allocate} hands out buffers of someone else. */
    private static final class Allocating implements Communicator {
        private final ShmCommunicator c;
        private final LongFunction<CommBuffer> alloc;

        Allocating(final ShmCommunicator c, final LongFunction<CommBuffer> alloc) {
            this.c = c;
            this.alloc = alloc;
        }

        @Override
        public int rank() {
            return c.rank();
        }

        @Override
        public int size() {
            return c.size();
        }

        @Override
        public String backend() {
            return c.backend();
        }

        @Override
        public CommBuffer allocate(final long bytes) {
            final CommBuffer b = alloc.apply(bytes);
            b.upload(ByteBuffer.allocate((int) bytes), 0); // zeroed, as allocate promises
            return b;
        }

        @Override
        public void allReduce(final CommBuffer s, final CommBuffer r, final long n, final DType t, final ReduceOp o) {
            c.allReduce(s, r, n, t, o);
        }

        @Override
        public void allGather(final CommBuffer s, final CommBuffer r, final long n, final DType t) {
            c.allGather(s, r, n, t);
        }

        @Override
        public void reduceScatter(final CommBuffer s, final CommBuffer r, final long n, final DType t,
                                  final ReduceOp o) {
            c.reduceScatter(s, r, n, t, o);
        }

        @Override
        public void broadcast(final CommBuffer s, final CommBuffer r, final long n, final DType t, final int root) {
            c.broadcast(s, r, n, t, root);
        }

        @Override
        public void reduce(final CommBuffer s, final CommBuffer r, final long n, final DType t, final ReduceOp o,
                           final int root) {
            c.reduce(s, r, n, t, o, root);
        }

        @Override
        public void allToAll(final CommBuffer s, final CommBuffer r, final long n, final DType t) {
            c.allToAll(s, r, n, t);
        }

        @Override
        public void allToAllv(final CommBuffer s, final long[] sc, final long[] sd, final CommBuffer r,
                              final long[] rc, final long[] rd, final DType t) {
            c.allToAllv(s, sc, sd, r, rc, rd, t);
        }

        @Override
        public void sendRecv(final CommBuffer s, final int to, final CommBuffer r, final int from, final long n,
                             final DType t) {
            c.sendRecv(s, to, r, from, n, t);
        }

        @Override
        public void barrier() {
            c.barrier();
        }

        @Override
        public void synchronize() {
            c.synchronize();
        }

        @Override
        public void close() {
            // the world closes the real communicator
        }
    }
}
