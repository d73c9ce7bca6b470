package cctk.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code cctk submit --wait} says about the result files a job left. */
class RunOutcomeTest {

    @TempDir
    Path dir;

    private final Instant since = Instant.now().minusSeconds(60);

    @Test
    void completeRunsAreResults() throws Exception {
        Files.writeString(dir.resolve("profile_tcp_world4_1.txt"), "# cctk\n# Summary: 0 wrong\n");
        final RunOutcome o = RunOutcome.of(dir, since);
        assertThat(o.incomplete()).isFalse();
        assertThat(o.words()).isEqualTo("results in " + dir);
    }

    @Test
    void anIncompleteLineOrPartFilesSayIncompleteWithTheCause() throws Exception {
        Files.writeString(dir.resolve("profile_tcp_world4_1.txt"), "# x\n# Incomplete: time limit: SIGTERM\n");
        Files.writeString(dir.resolve("profile_tcp_world2_2.txt.part"), "# x\n");
        final RunOutcome o = RunOutcome.of(dir, since);
        assertThat(o.incomplete()).isTrue();
        assertThat(o.words()).startsWith("incomplete results in " + dir)
            .contains("profile_tcp_world4_1.txt (time limit: SIGTERM)")
            .contains("only part files").contains("profile_tcp_world2_2.txt.part");
    }

    @Test
    void partFilesOfARunWhoseRankZeroDiedSayTheCauseAnotherRankWrote() throws Exception {
        Files.writeString(dir.resolve("profile_tcp_world3_5.txt.part"), "# x\n");
        Files.writeString(dir.resolve("profile_tcp_world3_5.cause"), "rank 1: rank 0 (process 7) is gone\n");
        assertThat(RunOutcome.of(dir, since).words())
            .contains("profile_tcp_world3_5.txt.part (rank 1: rank 0 (process 7) is gone)");
    }

    @Test
    void filesFromEarlierRunsDoNotCount() throws Exception {
        final Path old = dir.resolve("profile_tcp_world4_0.txt.part");
        Files.writeString(old, "# x\n");
        Files.setLastModifiedTime(old, FileTime.from(since.minusSeconds(3600)));
        assertThat(RunOutcome.of(dir, since).incomplete()).isFalse();
        assertThat(RunOutcome.of(dir.resolve("missing"), since).incomplete()).isFalse();
    }
}
