package cctk.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class ProcessRunnerTest {

    @TempDir
    Path tmp;

    private final List<String> log = new ArrayList<>();

    private ProcessRunner runner(final Map<String, String> extra) {
        final Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.putAll(extra);
        return new ProcessRunner(env, log::add);
    }

    @Test
    void sbatchVariablesAreScrubbedAndSaidSo() {
        final ProcessRunner r = runner(Map.of("SBATCH_TIMELIMIT", "1", "SBATCH_PARTITION", "x",
                "SLURM_CONF", "/etc/slurm/slurm.conf", "KEEP_SBATCH_ME", "y"));
        assertThat(r.environment()).doesNotContainKeys("SBATCH_TIMELIMIT", "SBATCH_PARTITION")
                .containsKeys("SLURM_CONF", "KEEP_SBATCH_ME", "PATH");
        assertThat(r.scrubbed()).containsExactly("SBATCH_PARTITION", "SBATCH_TIMELIMIT");
        assertThat(log).singleElement().asString().contains("SBATCH_PARTITION", "SBATCH_TIMELIMIT");
        // and a real child does not see them
        final ProcessRunner.Result res = r.run(List.of("env"), tmp, Duration.ofSeconds(10));
        assertThat(res.stdout()).contains("SLURM_CONF=/etc/slurm/slurm.conf").doesNotContain("SBATCH_TIMELIMIT");
    }

    @Test
    void nothingScrubbedNothingLogged() {
        runner(Map.of("HOME", "/root"));
        assertThat(log).isEmpty();
    }

    @Test
    void argumentsReachTheProgramVerbatimWithoutAShell() throws Exception {
        final Path marker = tmp.resolve("pwned");
        final ProcessRunner.Result res = runner(Map.of()).run(List.of("printf", "%s|", "a b", "$HOME",
                "'q'", "\"dq\"", "; touch " + marker, "$(touch " + marker + ")", ""), tmp, Duration.ofSeconds(10));
        assertThat(res.exit()).isZero();
        assertThat(res.stdout()).isEqualTo("a b|$HOME|'q'|\"dq\"|; touch " + marker + "|$(touch " + marker + ")||");
        assertThat(Files.exists(marker)).isFalse();
    }

    @Test
    void exitCodeStderrAndWorkingDirectoryComeBack() {
        final ProcessRunner.Result res = runner(Map.of()).run(List.of("ls", "no-such-file"), tmp,
                Duration.ofSeconds(10));
        assertThat(res.exit()).isNotZero();
        assertThat(res.ok()).isFalse();
        assertThat(res.stderr()).contains("no-such-file");
        final ProcessRunner.Result pwd = runner(Map.of()).run(List.of("pwd"), tmp, Duration.ofSeconds(10));
        assertThat(pwd.stdout().strip()).isEqualTo(tmp.toString());
    }

    @Test
    void watchdogStopsAProgramAtItsDeadline() {
        final long t0 = System.nanoTime();
        final ProcessRunner.Result res = runner(Map.of()).run(List.of("sleep", "20"), tmp, Duration.ofMillis(300));
        assertThat(res.timedOut()).isTrue();
        assertThat(res.ok()).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void missingProgramIsAnEnvironmentError() {
        assertThatThrownBy(() -> runner(Map.of()).run(List.of("cctk-no-such-program"), tmp, Duration.ofSeconds(5)))
                .isInstanceOfSatisfying(CctkException.class,
                        e -> assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT))
                .hasMessageContaining("cctk-no-such-program not found on PATH");
    }

    @Test
    void whichFollowsPath() throws Exception {
        final Path tool = FakeSlurm.script(tmp, "mytool", "echo hi");
        final ProcessRunner r = new ProcessRunner(Map.of("PATH", "/nonexistent:" + tmp), log::add);
        assertThat(r.which("mytool")).contains(tool);
        assertThat(r.which("absent")).isEmpty();
    }
}
