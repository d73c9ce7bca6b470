package cctk.comm.shm;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** After warm-up the collectives, and the waits inside them, allocate (almost) nothing on the calling thread. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ShmAllocationTest {

    private Path dir;

    @BeforeEach
    void directory() throws Exception {
        dir = ShmWorld.directory();
    }

    @AfterEach
    void clean() throws Exception {
        ShmWorld.delete(dir);
    }

    @Test
    void steadyStateCollectivesDoNotAllocate() throws Exception {
        final com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final List<Long> perOp = ShmWorld.run(3, ShmWorld.options(dir, Duration.ofSeconds(60)), comm -> {
            final int w = comm.size();
            final CommBuffer a = comm.allocate(4 << 20);
            final CommBuffer b = comm.allocate(4 << 20);
            final CommBuffer f = ForeignBuffer.allocate(1 << 20);
            final long[] counts = {1000, 1000, 1000};
            final long[] displs = {0, 1000, 2000};
            final Runnable[] ops = {
                () -> comm.allReduce(a, b, 200_000, DType.FLOAT32, ReduceOp.SUM),
                () -> comm.allReduce(a, a, 1000, DType.BFLOAT16, ReduceOp.AVG),
                () -> comm.allReduce(a, a, 300_000, DType.INT32, ReduceOp.MIN),
                () -> comm.reduceScatter(a, b, 50_000, DType.INT32, ReduceOp.MAX),
                () -> comm.allGather(a, b, 50_000, DType.FLOAT64),
                () -> comm.broadcast(a, a, 100_000, DType.FLOAT32, 1),
                () -> comm.reduce(a, b, 100_000, DType.FLOAT16, ReduceOp.SUM, 2),
                () -> comm.allToAll(a, b, 10_000, DType.INT8),
                () -> comm.allToAll(a, a, 10_000, DType.INT8),
                () -> comm.allToAllv(a, counts, displs, b, counts, displs, DType.FLOAT32),
                () -> comm.sendRecv(a, (comm.rank() + 1) % w, b, (comm.rank() + w - 1) % w, 5000, DType.INT64),
                () -> comm.sendRecv(a, (comm.rank() + 1) % w, a, (comm.rank() + w - 1) % w, 5000, DType.INT64),
                () -> comm.allReduce(f, f, 1000, DType.FLOAT32, ReduceOp.SUM),
                comm::barrier,
            };
            for (int i = 0; i < 30; i++) {
                for (final Runnable op : ops) {
                    op.run();
                }
            }
            final long before = mx.getCurrentThreadAllocatedBytes();
            final int rounds = 50;
            for (int i = 0; i < rounds; i++) {
                for (final Runnable op : ops) {
                    op.run();
                }
            }
            return (mx.getCurrentThreadAllocatedBytes() - before) / ((long) rounds * ops.length);
        });
        for (final long bytes : perOp) {
            assertThat(bytes).as("bytes allocated per collective").isLessThan(16);
        }
    }
}
