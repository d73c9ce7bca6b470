package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.AdversarialTally;
import java.io.IOException;
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
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adversarial suite's hostile result files: each through {@code cctk report} and {@code cctk compare}
 * in-process. Each must end within its deadline in one paragraph (no stack trace) with the documented exit code,
 * write nothing outside the report directory, and let no control character through to the terminal or the files.
 */
@Timeout(600)
class HostileResultFilesTest {

    private static final AdversarialTally TALLY = new AdversarialTally("hostile result files");
    private static final long DEADLINE_S = 60;

    @TempDir
    static Path tmp;

    @AfterAll
    static void tally() {
        TALLY.report();
        assertThat(TALLY.failures()).isEmpty();
        assertThat(TALLY.inputs()).isGreaterThanOrEqualTo(90);
    }

    @TestFactory
    Stream<DynamicTest> everyHostileInput() {
        final List<HostileCases.Case> cases = HostileCases.all();
        final List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            final HostileCases.Case c = cases.get(i);
            final Path root = tmp.resolve("case" + i);
            tests.add(DynamicTest.dynamicTest(c.name(), () -> run(c, root)));
        }
        return tests.stream();
    }

    private static void run(final HostileCases.Case c, final Path root) throws Exception {
        final Path in = Files.createDirectories(root.resolve("in"));
        // deep enough that ../../../../ from plots/ stays inside root, where the check below looks
        final Path out = root.resolve("a/b/c/d/out");
        c.maker().make(in, root);
        final Hostile.Outcome report = call("report", in.toString(), "-o", out.toString());
        final Hostile.Outcome compare = report == null ? null : call("compare", in.toString(), in.toString(), "--all");
        if (report == null || compare == null) {
            TALLY.record(c.name(), AdversarialTally.Outcome.HANG);
            throw new AssertionError(c.name() + ": no end within " + DEADLINE_S + " s");
        }
        for (final Path f : Hostile.files(root)) {
            assertThat(f.startsWith(in) || f.startsWith(out)).as("%s wrote %s outside its report", c.name(), f)
                .isTrue();
        }
        final AdversarialTally.Outcome outcome = judge(c, report, compare, out);
        TALLY.record(c.name(), outcome);
        assertThat(outcome).as("%s:%nreport %s%ncompare %s", c.name(), report, compare)
            .isIn(AdversarialTally.Outcome.CLEAR_ERROR, AdversarialTally.Outcome.HANDLED);
    }

    private static AdversarialTally.Outcome judge(final HostileCases.Case c, final Hostile.Outcome report,
                                                  final Hostile.Outcome compare, final Path out) throws IOException {
        if (report.stackTrace() || compare.stackTrace()) {
            return AdversarialTally.Outcome.STACK_TRACE;
        }
        final int want = c.expect() == HostileCases.Expect.HANDLED ? 0 : 2;
        if (report.code() != want || compare.code() != want) {
            return AdversarialTally.Outcome.WRONG_EXIT_CODE;
        }
        for (final Hostile.Outcome o : List.of(report, compare)) {
            assertThat(o.out() + o.err()).as(c.name()).doesNotContain("\u001b", "\u0007", "\r", "\u202E");
            assertThat(o.err().lines()).as(c.name()).allMatch(l -> l.startsWith("cctk: "));
        }
        for (final Path f : Hostile.files(out)) {
            if (!f.toString().endsWith(".png")) {
                assertThat(Files.readString(f, StandardCharsets.UTF_8)).as("%s: %s", c.name(), f)
                    .doesNotContain("\u001b", "\u0007", "\r", "\u202E");
            }
        }
        if (c.expect() == HostileCases.Expect.PARTIAL) {
            assertThat(report.out()).as(c.name()).contains("report of 1 run in");
            assertThat(report.err()).as(c.name()).contains(":3: row ");
        }
        if (c.expect() != HostileCases.Expect.HANDLED) {
            assertThat(report.err()).as(c.name()).startsWith("cctk: ");
            return AdversarialTally.Outcome.CLEAR_ERROR;
        }
        assertThat(report.err()).as(c.name()).isEmpty();
        // no formula-led cell in combined.csv, inert Markdown cells (issue 23)
        FormulaCellsTest.inert(c.name(), out);
        return AdversarialTally.Outcome.HANDLED;
    }

    /** One in-process CLI call with a deadline; null when it did not end in time. */
    private static Hostile.Outcome call(final String... args) throws Exception {
        final ExecutorService ex = Executors.newSingleThreadExecutor();
        try {
            final Future<Hostile.Outcome> f = ex.submit(() -> Hostile.cli(args));
            return f.get(DEADLINE_S, TimeUnit.SECONDS);
        } catch (final TimeoutException e) {
            return null;
        } finally {
            ex.shutdownNow();
        }
    }
}
