package cctk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.AdversarialTally;
import cctk.AdversarialTally.Outcome;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile command lines, run in-process through {@link Main#run} as a user would type them: each must end within
 * its deadline with the documented exit code and one paragraph on stderr, with no Java stack frame (unless
 * {@code --stacktrace} asked for one) and no raw control character reaching the terminal.
 */
@Timeout(600)
class CliInputsAdversarialTest {

    private static final AdversarialTally TALLY = new AdversarialTally("CLI inputs");
    private static final ExecutorService RUNNER = Executors.newCachedThreadPool(r -> {
        final Thread t = new Thread(r, "cli-adversarial");
        t.setDaemon(true);
        return t;
    });

    @TempDir
    static Path dir;

    @BeforeAll
    static void files() throws IOException {
        Files.writeString(dir.resolve("empty.yaml"), "");
        Files.write(dir.resolve("binary.yaml"), new byte[] {0x7f, 'E', 'L', 'F', 0, 0, 1, 2});
        Files.writeString(dir.resolve("huge.yaml"), "# " + "x".repeat(1_100_000) + "\n");
        Files.writeString(dir.resolve("list.yaml"), "- a\n- b\n");
        Files.writeString(dir.resolve("bomb.yaml"), "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a]\n"
                + "c: &c [*b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d]\n");
        Files.writeString(dir.resolve("inject.yaml"), """
                job:
                  name: "x; rm -rf / #"
                  output_dir: "$(touch /tmp/cctk-pwned)"
                resources:
                  nodes: 1
                  tasks_per_node: "2`id`"
                """);
        Files.writeString(dir.resolve("badnums.yaml"), """
                job: {name: badnums}
                resources: {nodes: 1, tasks_per_node: 2}
                benchmark: {sizes: [1e300], iters: -1, warmup: .nan, timeout: 1e400, tasks: [0]}
                """);
        final String job = "job: {name: %s}\nresources: {nodes: 1, tasks_per_node: 2}\n";
        // a jar where the script will look, so that render and submit get past their check on a fresh clone
        Files.writeString(dir.resolve("cctk.jar"), "not a jar: render and submit only check it exists");
        Files.writeString(dir.resolve("plain.yaml"), job.formatted("plain") + "cluster: {jar: \"" + dir.resolve(
                "cctk.jar") + "\"}\n");
        Files.writeString(dir.resolve("dotdot.yaml"), job.formatted("\"..\""));
        Files.writeString(dir.resolve("secret.yaml"), job.formatted("secret") + "env: {CCTK_SECRET: x}\n");
        Files.writeString(dir.resolve("dupsizes.yaml"), job.formatted("dup")
                + "benchmark: {sizes: [1MiB, 1048576B]}\n");
        Files.createDirectories(dir.resolve("a-directory.yaml"));
        Files.createDirectories(dir.resolve("results-empty"));
        Files.copy(Path.of("configs/local.yaml"), dir.resolve("local.yaml"));
    }

    @AfterAll
    static void report() {
        TALLY.report();
        RUNNER.shutdownNow();
    }

    static Stream<Arguments> inputs() {
        final String d = dir.toString();
        final List<Arguments> a = new ArrayList<>();
        // unknown or malformed commands
        for (final String c : List.of("valdate", "", "-", "--", "\u0000", "rm -rf /", "$(id)", "\u001b[31mred",
                "run\u001b]0;title\u0007", "--no-such-flag", "-Z")) {
            a.add(Arguments.of(2, List.of(c)));
        }
        // validate / render / submit with hostile files
        for (final String f : List.of("missing.yaml", "empty.yaml", "binary.yaml", "huge.yaml", "list.yaml",
                "bomb.yaml", "inject.yaml", "badnums.yaml", "a-directory.yaml", "bad\u001b[2Jname.yaml",
                "non-utf8-\uFFFD.yaml", "../../../../etc/passwd")) {
            final String p = f.startsWith("..") ? f : d + "/" + f;
            a.add(Arguments.of(2, List.of("validate", p)));
            a.add(Arguments.of(2, List.of("render", p, "-o", d + "/render-out")));
        }
        a.add(Arguments.of(2, List.of("submit", d + "/missing.yaml", "--dry-run")));
        a.add(Arguments.of(2, List.of("diagnose", d + "/missing.yaml", "--dry-run")));
        a.add(Arguments.of(2, List.of("diagnose")));
        a.add(Arguments.of(2, List.of("validate")));
        // cctk run flags
        for (final String n : List.of("0", "-1", "5000", "1e9", "abc", "2,,3", "99999999999", "2,5000", "")) {
            a.add(Arguments.of(2, List.of("run", "--nproc", n)));
        }
        for (final String s : List.of("-1", "1e300", "1QiB", "", "0x10", "NaN", "9999999999GiB")) {
            a.add(Arguments.of(2, List.of("run", "--nproc", "2", "--sizes", s)));
        }
        a.add(Arguments.of(2, List.of("run", "--nproc", "2", "--collectives", "bogus")));
        a.add(Arguments.of(2, List.of("run", "--nproc", "2", "--backend", "bogus")));
        a.add(Arguments.of(2, List.of("run", "--nproc", "2", "--backend", "\u001b[31m")));
        a.add(Arguments.of(2, List.of("run", "--grace", "-5")));
        a.add(Arguments.of(2, List.of("run", "--nproc", "2", "--cpu-bind", "cores", "-o", d + "/made-nothing")));
        a.add(Arguments.of(2, List.of("run", "--nproc", "2", "--cpu-bind", "\u001b[31m", "-o", d + "/made-nothing")));
        // issue 23: refused by the launcher before it makes anything, not by its ranks
        a.add(Arguments.of(2, List.of("run", "--nproc", "2,2", "-o", d + "/made-nothing")));
        a.add(Arguments.of(2, List.of("run", "--nproc", "2", "-o", d + "/esc\u001b[2Jdir")));
        a.add(Arguments.of(2, List.of("run", "--nproc", "2", "--sizes", "1MiB,1048576B", "-o", d + "/made-nothing")));
        for (final String f : List.of("dotdot.yaml", "secret.yaml", "dupsizes.yaml")) {
            a.add(Arguments.of(2, List.of("validate", d + "/" + f)));
        }
        for (final String w : List.of("-5", "0")) {
            a.add(Arguments.of(2, List.of("submit", d + "/plain.yaml", "--dry-run", "--wait-limit", w, "-o",
                    d + "/made-nothing")));
        }
        a.add(Arguments.of(3, List.of("render", d + "/plain.yaml", "-o", "/dev/null")));
        a.add(Arguments.of(0, List.of("submit", d + "/plain.yaml", "--dry-run", "-o", d + "/job-dir")));
        a.add(Arguments.of(2, List.of("run", d + "/missing.yaml")));
        a.add(Arguments.of(2, List.of("run", d + "/local.yaml", "--nproc", "2")));
        // demo
        for (final List<String> args : List.of(List.of("demo", "nope"), List.of("demo", "hello", "--nproc", "0"),
                List.of("demo", "hello", "--nproc", "100000"), List.of("demo", "alltoall", "--msg-bytes", "-1"),
                List.of("demo", "alltoall", "--msg-bytes", "1e300"), List.of("demo", "hello", "--timeout", "-3"),
                List.of("demo", "hello", "--timeout", "99999999999"))) {
            a.add(Arguments.of(2, args));
        }
        // status with hostile job ids
        for (final String id : List.of("abc", "1;rm -rf /", "", "$(id)", "1 2", "\u001b[0m", "-1")) {
            a.add(Arguments.of(2, List.of("status", id)));
        }
        // report and compare
        a.add(Arguments.of(2, List.of("report", d + "/no-such-dir")));
        a.add(Arguments.of(2, List.of("report", d + "/results-empty")));
        a.add(Arguments.of(2, List.of("compare", d + "/a.csv", d + "/b.csv")));
        a.add(Arguments.of(2, List.of("compare", d + "/a.csv")));
        a.add(Arguments.of(2, List.of("report", d + "/results-empty", "--cv-limit", "NaN")));
        // the rank outside any launcher, and with hostile numbers
        a.add(Arguments.of(2, List.of("rank", "--timeout", "-1")));
        a.add(Arguments.of(2, List.of("rank", "--timeout", "1e400")));
        // help and completion stay fine
        a.add(Arguments.of(0, List.of("--help")));
        a.add(Arguments.of(0, List.of("run", "--help")));
        a.add(Arguments.of(0, List.of("generate-completion")));
        return a.stream();
    }

    @ParameterizedTest(name = "[{index}] cctk {1}")
    @MethodSource("inputs")
    void endsCleanlyWithTheRightCode(final int expected, final List<String> args) throws Exception {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final Future<Integer> run = RUNNER.submit(() -> Main.run(new PrintWriter(out), new PrintWriter(err),
                args.toArray(String[]::new)));
        final int code;
        try {
            code = run.get(60, TimeUnit.SECONDS);
        } catch (final TimeoutException e) {
            run.cancel(true);
            TALLY.record(args.toString(), Outcome.HANG);
            throw new AssertionError("cctk " + args + " did not end within 60 s");
        }
        final String e = err.toString();
        final boolean trace = e.contains("\tat ") || e.contains("Exception in thread");
        final boolean raw = e.chars().anyMatch(c -> (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f);
        final Outcome outcome = trace ? Outcome.STACK_TRACE : code != expected || raw ? Outcome.WRONG_EXIT_CODE
                : expected == 0 ? Outcome.HANDLED : Outcome.CLEAR_ERROR;
        TALLY.record(args.toString(), outcome);
        assertThat(trace).as("a stack trace for %s:%n%s", args, e).isFalse();
        assertThat(raw).as("a raw control character reached stderr for %s:%n%s", args, e).isFalse();
        assertThat(code).as("exit code of cctk %s; stderr:%n%s", args, e).isEqualTo(expected);
        if (expected != 0) {
            assertThat(e).as("stderr of %s", args).startsWith("cctk").doesNotContain("\n\n");
        }
        assertThat(e).as("stderr of %s", args).doesNotContain("Exception").doesNotContain("(null)");
        assertThat(Files.exists(dir.resolve("made-nothing"))).as("%s made its directory", args).isFalse();
        assertThat(Files.exists(dir.resolve("esc\u001b[2Jdir"))).as("%s made its directory", args).isFalse();
        assertThat(Files.exists(Path.of("/tmp/cctk-pwned"))).as("a payload ran").isFalse();
        assertThat(new String(out.toString().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isNotNull();
    }
}
