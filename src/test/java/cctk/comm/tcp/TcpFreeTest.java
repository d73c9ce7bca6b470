package cctk.comm.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.DirectBuffers;
import cctk.comm.ReduceOp;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A freed buffer gives its direct memory back at once (no collector involved) and can no longer be used. */
@Timeout(60)
class TcpFreeTest {

    private static long directBytes() {
        return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(b -> b.getName().equals("direct")).findFirst().orElseThrow().getMemoryUsed();
    }

    @Test
    void freeingGivesTheMemoryBackAtOnceAndLaterUseFails() throws Exception {
        Assumptions.assumeTrue(DirectBuffers.EXPLICIT, "explicit release needs JDK 17-22");
        final List<Long> given = LocalWorld.run(2, LocalWorld.options(Duration.ofSeconds(30)), comm -> {
            final CommBuffer a = comm.allocate(16 << 20);
            final CommBuffer b = comm.allocate(16 << 20);
            comm.allReduce(a, b, 1000, DType.FLOAT32, ReduceOp.SUM);
            final CommBuffer slice = a.slice(0, 4096);
            assertThatThrownBy(() -> comm.free(slice)).isInstanceOf(CctkException.class)
                .hasMessageContaining("only a whole buffer");
            synchronized (TcpFreeTest.class) {
                final long before = directBytes();
                comm.free(a);
                comm.free(a);
                final long freed = before - directBytes();
                assertThatThrownBy(() -> comm.allReduce(slice, b, 10, DType.FLOAT32, ReduceOp.SUM))
                    .isInstanceOf(CctkException.class).hasMessageContaining("used after it was freed");
                assertThatThrownBy(() -> slice.upload(java.nio.ByteBuffer.allocate(4), 0))
                    .isInstanceOf(IllegalStateException.class);
                comm.free(b);
                return freed;
            }
        });
        // the other rank's small temporary buffers may come and go meanwhile: within 64 KiB of the 16 MiB
        assertThat(given).allSatisfy(g -> assertThat(g).isBetween((16L << 20) - (64 << 10), (16L << 20) + (64 << 10)));
    }
}
