package cctk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.Environment;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A rank's own command lines skip picocli; anything else, help and mistakes included, goes the full way. */
@Timeout(30)
class RankFastPathTest {

    private final StringWriter err = new StringWriter();

    private int run(final Environment env, final String... args) {
        return RankFastPath.run(new PrintWriter(new StringWriter()), new PrintWriter(err, true), env, args);
    }

    @Test
    void helpTyposAndLaunchersGoThroughTheFullCommandLine() {
        assertThat(run(Environment.empty(), "rank", "--help")).isEqualTo(-1);
        assertThat(run(Environment.empty(), "rank", "--spec")).isEqualTo(-1);
        assertThat(run(Environment.empty(), "rank", "--sepc", "x.yaml")).isEqualTo(-1);
        assertThat(run(Environment.empty(), "rank", "--msg-bytes", "4")).isEqualTo(-1);
        assertThat(run(Environment.empty(), "validate", "x.yaml")).isEqualTo(-1);
        assertThat(run(Environment.empty(), "demo", "nosuch", "--nproc", "2")).isEqualTo(-1);
        assertThat(run(Environment.empty(), "demo", "allreduce", "--nproc", "two")).isEqualTo(-1);
        assertThat(run(Environment.of(java.util.Map.of("RANK", "0")), "demo", "nosuch")).isEqualTo(-1);
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void aDemosLaunchChecksItsOptionsAsTheCommandDoes() {
        assertThat(run(Environment.empty(), "demo", "allreduce", "--nproc=0", "--oversubscribe")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("cctk: --nproc must be at least 1.\n");
    }

    @Test
    void itsErrorsAreOneParagraphWithTheUsualExitCode() {
        assertThat(run(Environment.empty(), "-x", "rank", "--timeout=0")).isEqualTo(2);
        assertThat(err.toString()).startsWith("cctk: --timeout: expected 1 to 86400 seconds, found 0.")
            .contains("at cctk.cli.Main.checkTimeout");
    }
}
