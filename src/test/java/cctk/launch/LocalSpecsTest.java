package cctk.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.coll.CollectiveType;
import cctk.spec.JobSpec;
import cctk.spec.MessageSize;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class LocalSpecsTest {

    @Test
    void flagsBecomeTheBenchmark() {
        final JobSpec spec = LocalSpecs.fromFlags(List.of(2, 4), "tcp", List.of("all_reduce", "broadcast"),
                List.of("4MiB", "512KiB", "64B", "1024"));
        assertThat(spec.benchmark().taskCounts()).containsExactly(2, 4);
        assertThat(spec.benchmark().backends()).containsExactly("tcp");
        assertThat(spec.benchmark().collectives()).containsExactly(CollectiveType.ALL_REDUCE,
                CollectiveType.BROADCAST);
        assertThat(spec.benchmark().sizes()).containsExactly(new MessageSize(4 << 20, false),
                new MessageSize(512 << 10, false), new MessageSize(64, false), new MessageSize(1024, true));
        assertThat(spec.resources().tasksPerNode()).isEqualTo(4);
        assertThat(spec.cluster().name()).isEqualTo("local");
    }

    @Test
    void defaultsWhenNothingIsNamed() {
        final JobSpec spec = LocalSpecs.fromFlags(List.of(2), "tcp", List.of(), List.of());
        assertThat(spec.benchmark().collectives()).isEqualTo(LocalSpecs.DEFAULT_COLLECTIVES);
        assertThat(spec.benchmark().sizes()).hasSize(LocalSpecs.DEFAULT_SIZES.size());
        assertThat(spec.benchmark().timeoutSeconds()).isEqualTo(LocalSpecs.DEFAULT_TIMEOUT_SECONDS);
    }

    @Test
    void badFlagsAreUsageErrors() {
        assertThatThrownBy(() -> LocalSpecs.fromFlags(List.of(0), "tcp", List.of(), List.of()))
                .isInstanceOf(CctkException.class).hasMessageContaining("--nproc");
        assertThatThrownBy(() -> LocalSpecs.fromFlags(List.of(2), "tcp", List.of(), List.of("4XB")))
                .isInstanceOf(CctkException.class).hasMessageStartingWith("--sizes: ").hasMessageContaining("4XB");
    }

    @Test
    void freePortsAreFreeAndExitCodesMap() {
        assertThat(LocalLauncher.freePort()).isBetween(1, 65_535);
        assertThat(LocalLauncher.asExitCode(2)).isEqualTo(2);
        assertThat(LocalLauncher.asExitCode(137)).isEqualTo(3);
        assertThat(LocalLauncher.asExitCode(-1)).isEqualTo(3);
    }
}
