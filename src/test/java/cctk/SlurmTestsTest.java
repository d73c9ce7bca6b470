package cctk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** The Slurm gate: without Slurm a test fails with the command that runs it, or is skipped only when asked. */
class SlurmTestsTest {

    @AfterEach
    void clear() {
        System.clearProperty(SlurmTests.SKIP_PROPERTY);
    }

    @Test
    void withoutSlurmATestFailsAndSaysHowToRunIt() {
        final Throwable t = catchThrowable(() -> SlurmTests.unavailable("SomeIT", "Slurm is not installed"));
        assertThat(t).isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("SomeIT needs a real Slurm and cannot run here: Slurm is not installed")
                .hasMessageContaining("bash scripts/slurm-local.sh install && mvn -B verify")
                .hasMessageContaining("-D" + SlurmTests.SKIP_PROPERTY + "=true");
    }

    @Test
    void askedToSkipItAbortsWithAnUnmistakableReason() {
        System.setProperty(SlurmTests.SKIP_PROPERTY, "true");
        final Throwable t = catchThrowable(() -> SlurmTests.unavailable("SomeIT", "it needs root"));
        assertThat(t).isInstanceOf(TestAbortedException.class).hasMessageStartingWith("SKIPPED, NOT PASSED: SomeIT");
    }
}
