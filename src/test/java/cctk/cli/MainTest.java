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

    /** --time-across-ranks builds a spec: with SPEC it is refused like the other such flags, and named. */
    @Test
    void theTimeAcrossRanksFlagIsRefusedBesideASpec() {
        final Result r = cctk("run", "no-such-spec.yaml", "--time-across-ranks", "mean");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--time-across-ranks", "with SPEC, edit the spec");
        assertThat(cctk("run", "--help").out()).contains("--time-across-ranks=HOW", "max, mean");
    }

    /** A command that fails the way a bug in cctk does: an exception cctk did not mean to throw. */
    @picocli.CommandLine.Command(name = "boom")
    static final class Boom implements java.util.concurrent.Callable<Integer> {
        @Override
        public Integer call() {
            throw new IllegalStateException("an index went astray");
        }
    }

    private static Result withBoom(final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final picocli.CommandLine cl = Main.commandLine(new PrintWriter(out), new PrintWriter(err));
        cl.addSubcommand("boom", new Boom());
        cl.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true)); // reach the new subcommand too
        final int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void aBugExitsFourWithOneParagraphAndTheTraceOnlyWithStacktrace() {
        final Result plain = withBoom("boom");
        assertThat(plain.code()).isEqualTo(4);
        assertThat(plain.err()).contains("cctk: internal error: java.lang.IllegalStateException: an index went"
            + " astray", "This is a bug in cctk", "--stacktrace").doesNotContain("\tat ");
        assertThat(plain.err().strip().lines()).hasSize(1);
        for (final String[] args : new String[][] {{"--stacktrace", "boom"}, {"boom", "--stacktrace"}, {"-x", "boom"}}) {
            final Result traced = withBoom(args);
            assertThat(traced.code()).as(String.join(" ", args)).isEqualTo(4);
            assertThat(traced.err()).as(String.join(" ", args)).contains("internal error",
                "\tat cctk.cli.MainTest$Boom.call(");
        }
    }

    @Test
    void aFailureOfTheEnvironmentShowsItsTraceOnlyWithStacktrace() {
        final Result plain = cctk("status", "not-a-job-id");
        final Result traced = cctk("--stacktrace", "status", "not-a-job-id");
        assertThat(plain.code()).isEqualTo(traced.code()).isNotZero();
        assertThat(plain.err()).startsWith("cctk: ").doesNotContain("\tat ");
        assertThat(traced.err()).startsWith(plain.err().strip()).contains("\tat cctk.");
    }

    @Test
    void shellCompletionOffersTheValuesOfEachOption() {
        final Result r = cctk("generate-completion");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("complete -F", "cctk")
            .contains("(\"tcp\" \"tcp-flat\" \"gloo\" \"nccl\") # --backend values",
                "(\"all_reduce\" \"all_gather\" \"reduce_scatter\"", "(\"float32\" \"float64\" \"float16\" \"bfloat16\"",
                "(\"sum\" \"prod\" \"min\" \"max\" \"avg\")", "(\"hello\" \"broadcast\" \"allreduce\" \"alltoall\")",
                "(\"both\" \"true\" \"false\") # --in-place values");
    }
}
