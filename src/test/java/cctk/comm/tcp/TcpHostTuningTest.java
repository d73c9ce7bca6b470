package cctk.comm.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import java.net.StandardSocketOptions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the tcp backend tunes to its host: the progress engine spins before blocking only when every rank of the host
 * can have a core of its own; data-movement collectives use shallow send buffers on a single host.
 */
@Timeout(30)
class TcpHostTuningTest {

    private static final int CPUS = Runtime.getRuntime().availableProcessors();

    @Test
    void spinsWhenEveryLocalRankHasACore() {
        assertThat(HostTuning.spinNanos(TcpOptions.local(Duration.ofSeconds(5), "t", LocalWorld.SECRET), CPUS)).isEqualTo(50_000L);
    }

    @Test
    void blocksAtOnceWhenTheHostRunsMoreRanksThanCores() {
        assertThat(HostTuning.spinNanos(TcpOptions.local(Duration.ofSeconds(5), "t", LocalWorld.SECRET), CPUS + 1)).isZero();
    }

    @Test
    void multiNodeJobsKeepSpinning() {
        final TcpOptions multi = new TcpOptions(List.of("lo"), true, Duration.ofSeconds(5), 0, "t", LocalWorld.SECRET);
        assertThat(HostTuning.spinNanos(multi, CPUS * 4)).isEqualTo(50_000L);
    }

    @Test
    void thePropertyOverridesTheRule() {
        System.setProperty("cctk.tcp.spinMicros", "7");
        try {
            assertThat(HostTuning.spinNanos(TcpOptions.local(Duration.ofSeconds(5), "t", LocalWorld.SECRET), CPUS + 1))
                    .isEqualTo(7_000L);
        } finally {
            System.clearProperty("cctk.tcp.spinMicros");
        }
    }

    @Test
    void streamsThroughShallowSendBuffersOnOneHostEvenWhenRanksShareCores() {
        assertThat(HostTuning.streamSendBytes(TcpOptions.local(Duration.ofSeconds(5), "t", LocalWorld.SECRET))).isEqualTo(256 << 10);
    }

    @Test
    void keepsTheConnectedBuffersAcrossHostsOrWhenTheKernelAutotunes() {
        final TcpOptions multi = new TcpOptions(List.of("lo"), true, Duration.ofSeconds(5), 1 << 20, "t", LocalWorld.SECRET);
        assertThat(HostTuning.streamSendBytes(multi)).isZero();
        final TcpOptions autotuned = new TcpOptions(List.of(), false, Duration.ofSeconds(5), 0, "t", LocalWorld.SECRET);
        assertThat(HostTuning.streamSendBytes(autotuned)).isZero();
    }

    @Test
    void broadcastRelaysKeepDeepBuffersOnlyWhenRanksShareCores() {
        final TcpOptions local = TcpOptions.local(Duration.ofSeconds(5), "t", LocalWorld.SECRET);
        assertThat(HostTuning.broadcastStreams(local, 2)).isTrue();
        assertThat(HostTuning.broadcastStreams(local, CPUS)).isTrue();
        assertThat(HostTuning.broadcastStreams(local, Math.max(3, CPUS + 1))).isFalse();
        final TcpOptions multi = new TcpOptions(List.of("lo"), true, Duration.ofSeconds(5), 1 << 20, "t", LocalWorld.SECRET);
        assertThat(HostTuning.broadcastStreams(multi, CPUS * 4)).isTrue();
    }

    /** The kernel reports twice the size asked for; what matters: streams shrink it, reductions restore it. */
    @Test
    void broadcastShrinksTheSendBuffersAndAllReduceRestoresThem() throws Exception {
        // 64 KiB stays below the kernel's cap (net.core.wmem_max, 208 KiB on a stock kernel) on the connected size
        System.setProperty("cctk.tcp.streamSendBytes", Integer.toString(64 << 10));
        final List<int[]> sizes;
        try {
            sizes = LocalWorld.run(2, LocalWorld.options(Duration.ofSeconds(10)), comm -> {
                final CommBuffer b = TcpCollectivesTest.filled(comm, DType.FLOAT32, ReduceOp.SUM, 1 << 16);
                comm.barrier(); // connects the pair
                final int connected = sendBuffer(comm);
                comm.broadcast(b, b, 1 << 16, DType.FLOAT32, 0);
                final int streaming = sendBuffer(comm);
                comm.allReduce(b, b, 1 << 16, DType.FLOAT32, ReduceOp.SUM);
                return new int[] {connected, streaming, sendBuffer(comm)};
            });
        } finally {
            System.clearProperty("cctk.tcp.streamSendBytes");
        }
        for (final int[] s : sizes) {
            assertThat(s[1]).isLessThanOrEqualTo(2 * (64 << 10)).isLessThan(s[0]);
            assertThat(s[2]).isEqualTo(s[0]);
        }
    }

    private static int sendBuffer(final TcpCommunicator comm) throws java.io.IOException {
        return comm.links[1 - comm.rank()][0].channel.getOption(StandardSocketOptions.SO_SNDBUF);
    }
}
