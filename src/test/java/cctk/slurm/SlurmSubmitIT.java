package cctk.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against a real Slurm (scripts/slurm-local.sh start local, ensured before the class): hand-written batch
 * scripts go through {@link Submitter} and {@link JobFollower} and must end in the state Slurm itself reports.
 * Skipped where that cannot work (not root or no Slurm), except under CI=true where that is a failure.
 */
@Tag("slurm")
@Timeout(180)
class SlurmSubmitIT {

    @TempDir
    Path dir;

    private final List<String> lines = new ArrayList<>();
    private final SlurmCli slurm = new SlurmCli(ProcessRunner.fromSystem(lines::add));

    @BeforeAll
    static void needsSlurm() {
        LocalCluster.ensure("local");
    }

    private static JobFollower.Polling quick() {
        return new JobFollower.Polling(Duration.ofMillis(200), Duration.ofSeconds(1), Duration.ofSeconds(120),
                Duration.ofSeconds(30));
    }

    private Path script(final String name, final String body) throws Exception {
        final Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/bash\n#SBATCH -J cctk-it-" + name + "\n#SBATCH -o " + dir + "/%x-%j.out\n"
                + "#SBATCH -t 00:05:00\n#SBATCH -n 1\n" + body + "\n");
        return p;
    }

    private JobStatus submitAndFollow(final Path script) {
        final Submitter.Submission s = new Submitter(slurm).submit(script, List.of(), dir);
        assertThat(s.jobId()).matches("[0-9]+");
        return new JobFollower(slurm, quick(), lines::add).follow(s.jobId());
    }

    @Test
    void aGoodScriptCompletesAndWritesItsOutput() throws Exception {
        final JobStatus end = submitAndFollow(script("ok", "echo \"hello from $SLURM_JOB_ID on $SLURMD_NODENAME\""));
        assertThat(end.state()).isEqualTo(JobState.COMPLETED);
        assertThat(end.exitCode()).isEqualTo("0:0");
        final Path out = dir.resolve("cctk-it-ok-" + end.jobId() + ".out");
        assertThat(Files.readString(out)).startsWith("hello from " + end.jobId() + " on ");
        assertThat(lines).last().asString().endsWith("job " + end.jobId() + " COMPLETED, exit code 0:0");

        final StringWriter o = new StringWriter();
        final StringWriter e = new StringWriter();
        final int code = Main.run(new PrintWriter(o), new PrintWriter(e), "status", end.jobId());
        assertThat(code).as(e.toString()).isZero();
        assertThat(o.toString()).startsWith("job " + end.jobId() + " COMPLETED, exit code 0:0");
    }

    @Test
    void exitThreeIsFailedWithExitCodeThree() throws Exception {
        final JobStatus end = submitAndFollow(script("fail", "echo about to fail; exit 3"));
        assertThat(end.state()).isEqualTo(JobState.FAILED);
        assertThat(end.state().success()).isFalse();
        assertThat(end.exitCode()).isEqualTo("3:0");
        assertThat(end.exitStatus()).isEqualTo(3);
        assertThat(end.describe()).contains("FAILED, exit code 3:0");
    }

    @Test
    void scancelOfARunningJobIsCancelled() throws Exception {
        final Submitter.Submission s = new Submitter(slurm).submit(script("sleep", "sleep 300"), List.of(), dir);
        final JobQuery query = new JobQuery(slurm);
        final long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        Optional<JobStatus> now = query.query(s.jobId());
        while (now.map(st -> st.state() != JobState.RUNNING).orElse(true) && System.nanoTime() < until) {
            Thread.sleep(200);
            now = query.query(s.jobId());
        }
        assertThat(now).map(JobStatus::state).contains(JobState.RUNNING);
        assertThat(slurm.call("scancel", s.jobId()).exit()).isZero();
        final JobStatus end = new JobFollower(slurm, quick(), lines::add).follow(s.jobId());
        assertThat(end.state()).isEqualTo(JobState.CANCELLED);
        assertThat(end.state().terminal()).isTrue();
    }

    @Test
    void aJobThatCanNeverFitIsRejectedWithSbatchsReason() throws Exception {
        final Path tooBig = script("huge", "true");
        assertThatThrownBy(() -> new Submitter(slurm).submit(tooBig, List.of("-n", "10000"), dir))
                .isInstanceOfSatisfying(CctkException.class,
                        e -> assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT))
                .hasMessageContaining("sbatch rejected").hasMessageContaining("error");
    }

    @Test
    void inheritedSbatchVariablesDoNotReachTheJob() throws Exception {
        final ProcessRunner poisoned = new ProcessRunner(
                withExtra(System.getenv(), "SBATCH_TIMELIMIT", "0:1"), lines::add);
        final SlurmCli cli = new SlurmCli(poisoned);
        final Submitter.Submission s = new Submitter(cli).submit(script("env", "echo ok"), List.of(), dir);
        final String show = cli.call("scontrol", "show", "job", s.jobId()).stdout();
        assertThat(show).contains("TimeLimit=00:05:00");
        assertThat(lines).anyMatch(l -> l.contains("SBATCH_TIMELIMIT"));
        new JobFollower(cli, quick(), lines::add).follow(s.jobId());
    }

    private static java.util.Map<String, String> withExtra(final java.util.Map<String, String> env, final String k,
                                                          final String v) {
        final java.util.Map<String, String> m = new java.util.HashMap<>(env);
        m.put(k, v);
        return m;
    }
}
