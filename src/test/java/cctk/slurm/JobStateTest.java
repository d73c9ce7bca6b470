package cctk.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(10)
class JobStateTest {

    @ParameterizedTest
    @CsvSource({"PENDING,PENDING", "PD,PENDING", "running,RUNNING", "CG,COMPLETING", "CD,COMPLETED",
        "'CANCELLED by 0',CANCELLED", "'CANCELLED by 1234',CANCELLED", "CANCELLED+,CANCELLED", "OOM,OUT_OF_MEMORY",
        "OUT_OF_MEMORY,OUT_OF_MEMORY", "NODE_FAIL,NODE_FAIL", "TO,TIMEOUT", "' FAILED ',FAILED", "RQ,REQUEUED",
        "BOGUS,UNKNOWN", "'',UNKNOWN"})
    void readsEveryToolsSpelling(final String text, final JobState expected) {
        assertThat(JobState.parse(text)).isEqualTo(expected);
    }

    @Test
    void onlyCompletedIsASuccessAndQueueStatesAreNotTerminal() {
        for (final JobState s : JobState.values()) {
            assertThat(s.success()).as(s.name()).isEqualTo(s == JobState.COMPLETED);
        }
        assertThat(JobState.PENDING.terminal()).isFalse();
        assertThat(JobState.RUNNING.terminal()).isFalse();
        assertThat(JobState.COMPLETING.terminal()).isFalse();
        assertThat(JobState.REQUEUED.terminal()).isFalse();
        assertThat(JobState.UNKNOWN.terminal()).isFalse();
        assertThat(JobState.FAILED.terminal()).isTrue();
        assertThat(JobState.TIMEOUT.terminal()).isTrue();
        assertThat(JobState.CANCELLED.terminal()).isTrue();
        assertThat(JobState.REVOKED.terminal()).isTrue();
    }

    @Test
    void shortCodesAreUnique() {
        assertThat(java.util.Arrays.stream(JobState.values()).map(JobState::code).distinct().count())
                .isEqualTo(JobState.values().length);
    }
}
