package cctk.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class JobFollowerTest {

    @TempDir
    Path tmp;

    private final List<String> lines = new ArrayList<>();

    private static JobFollower.Polling fast(final Duration deadline) {
        return new JobFollower.Polling(Duration.ofMillis(5), Duration.ofMillis(20), deadline, Duration.ofMillis(200));
    }

    private static JobStatus st(final JobState s, final String exit) {
        return new JobStatus("9", s, exit, null, "test");
    }

    @Test
    void printsEachChangeOnceWithATimeAndReturnsTheEnd() {
        final Deque<Optional<JobStatus>> answers = new ArrayDeque<>(List.of(Optional.of(st(JobState.PENDING, null)),
                Optional.of(st(JobState.PENDING, null)), Optional.of(st(JobState.RUNNING, null)),
                Optional.of(st(JobState.RUNNING, null)), Optional.empty(),
                Optional.of(st(JobState.FAILED, "3:0"))));
        final JobStatus end = new JobFollower(id -> answers.pop(), fast(Duration.ofSeconds(10)), lines::add)
                .follow("9");
        assertThat(end.state()).isEqualTo(JobState.FAILED);
        assertThat(end.exitStatus()).isEqualTo(3);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).matches("\\d\\d:\\d\\d:\\d\\d job 9 PENDING");
        assertThat(lines.get(1)).endsWith("job 9 RUNNING");
        assertThat(lines.get(2)).endsWith("job 9 FAILED, exit code 3:0");
    }

    @Test
    void aRunningJobIsAskedAtLeastEveryTwoSecondsSoItsEndIsNoticedPromptly() {
        final Deque<Optional<JobStatus>> answers = new ArrayDeque<>();
        answers.add(Optional.of(st(JobState.PENDING, null)));
        for (int i = 0; i < 12; i++) {
            answers.add(Optional.of(st(JobState.RUNNING, null)));
        }
        answers.add(Optional.of(st(JobState.CANCELLED, "0:15")));
        final List<Duration> pauses = new ArrayList<>();
        final JobStatus end = new JobFollower(id -> answers.pop(), JobFollower.Polling.gentle(Duration.ofHours(1)),
                lines::add, pauses::add).follow("9");
        assertThat(end.state()).isEqualTo(JobState.CANCELLED);
        assertThat(pauses).hasSize(13);
        assertThat(pauses.subList(1, pauses.size())).allSatisfy(p ->
                assertThat(p).isLessThanOrEqualTo(JobFollower.RUNNING_POLL));
    }

    @Test
    void deadlineEndsTheWaitAndNamesTheJob() {
        final long t0 = System.nanoTime();
        assertThatThrownBy(() -> new JobFollower(id -> Optional.of(st(JobState.RUNNING, null)),
                fast(Duration.ofMillis(300)), lines::add).follow("9"))
                .isInstanceOf(CctkException.class).hasMessageContaining("job 9 is still RUNNING")
                .hasMessageContaining("scancel 9");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aJobNoToolKnowsIsAnError() {
        assertThatThrownBy(() -> new JobFollower(id -> Optional.empty(), fast(Duration.ofSeconds(10)), lines::add)
                .follow("9")).isInstanceOf(CctkException.class).hasMessageContaining("unknown to squeue");
    }

    @Test
    void fallsBackFromSqueueToScontrolThroughRealProcesses() throws Exception {
        final Path bin = Files.createDirectory(tmp.resolve("bin"));
        // squeue knows the job on the first call only; then scontrol reports how it ended
        FakeSlurm.script(bin, "squeue", "f=\"" + tmp + "/seen\"; if [ ! -e \"$f\" ]; then touch \"$f\";"
                + " echo RUNNING; else echo 'slurm_load_jobs error: Invalid job id specified' >&2; exit 1; fi");
        FakeSlurm.script(bin, "scontrol", "[ \"$*\" = 'show job 9' ] || exit 9; echo 'JobId=9 JobName=x';"
                + " echo '   JobState=CANCELLED Reason=None Dependency=(null)'; echo '   ExitCode=0:15'");
        final JobStatus end = new JobFollower(FakeSlurm.cli(bin, lines), fast(Duration.ofSeconds(20)), lines::add)
                .follow("9");
        assertThat(end).isEqualTo(new JobStatus("9", JobState.CANCELLED, "0:15", null, "scontrol"));
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).endsWith("job 9 RUNNING");
    }
}
