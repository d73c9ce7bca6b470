package cctk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class MainTest {

    /** Output of one in-process run. */
    record Result(int code, String out, String err) {
    }

    static Result cctk(final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int code = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void helpListsCommandsAndExitCodes() {
        final Result r = cctk("--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("validate", "render", "submit", "Exit codes:", "bad input");
    }

    @Test
    void versionComesFromTheBuild() {
        final Result r = cctk("--version");
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("cctk ");
    }

    @Test
    void unknownCommandIsAUsageErrorWithASuggestion() {
        final Result r = cctk("valdate");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("valdate").contains("validate").doesNotContain("at cctk.");
    }
}
