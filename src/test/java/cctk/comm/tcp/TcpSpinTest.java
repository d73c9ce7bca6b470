package cctk.comm.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The progress engine spins before blocking only when every rank of the host can have a core of its own. */
@Timeout(10)
class TcpSpinTest {

    private static final int CPUS = Runtime.getRuntime().availableProcessors();

    @Test
    void spinsWhenEveryLocalRankHasACore() {
        assertThat(TcpCommunicator.spinNanos(TcpOptions.local(Duration.ofSeconds(5), "t"), CPUS)).isEqualTo(50_000L);
    }

    @Test
    void blocksAtOnceWhenTheHostRunsMoreRanksThanCores() {
        assertThat(TcpCommunicator.spinNanos(TcpOptions.local(Duration.ofSeconds(5), "t"), CPUS + 1)).isZero();
    }

    @Test
    void multiNodeJobsKeepSpinning() {
        final TcpOptions multi = new TcpOptions(List.of("lo"), true, Duration.ofSeconds(5), 0, "t");
        assertThat(TcpCommunicator.spinNanos(multi, CPUS * 4)).isEqualTo(50_000L);
    }

    @Test
    void thePropertyOverridesTheRule() {
        System.setProperty("cctk.tcp.spinMicros", "7");
        try {
            assertThat(TcpCommunicator.spinNanos(TcpOptions.local(Duration.ofSeconds(5), "t"), CPUS + 1))
                    .isEqualTo(7_000L);
        } finally {
            System.clearProperty("cctk.tcp.spinMicros");
        }
    }
}
