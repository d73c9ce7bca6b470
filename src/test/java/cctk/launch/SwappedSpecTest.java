package cctk.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.AdversarialTally;
import cctk.CctkException;
import cctk.ExitCode;
import cctk.cli.Main;
import cctk.spec.JobSpec;
import cctk.spec.SpecDigest;
import cctk.spec.SpecParser;
import cctk.spec.SpecWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second user (or anything else) replaces {@code cctk-run-<stamp>.yaml} between {@code cctk run} writing it and
 * its ranks reading it: the ranks must run nothing of the swapped spec, write nothing where it says, and the run
 * must not end as a success.
 */
@Timeout(120)
class SwappedSpecTest {

    private static final AdversarialTally TALLY = new AdversarialTally("output directory attacks: swapped specs");

    @TempDir
    Path tmp;

    @AfterAll
    static void tally() {
        TALLY.report();
        assertThat(TALLY.failures()).isEmpty();
    }

    @Test
    void aSpecWhoseBytesChangedAfterItsDigestWasTakenIsRefusedNamingTheFile() throws IOException {
        final Path out = tmp.resolve("out");
        final byte[] yaml = SpecWriter.toYaml(spec(out)).getBytes(StandardCharsets.UTF_8);
        final Path file = Files.write(tmp.resolve("cctk-run-1.yaml"), yaml);
        final String digest = SpecDigest.of(yaml);
        assertThat(SpecParser.parse(file, digest).job().outputDir()).isEqualTo(out.toString());
        Files.writeString(file, swapped(new String(yaml, StandardCharsets.UTF_8), out, tmp.resolve("theirs")));
        assertThatThrownBy(() -> SpecParser.parse(file, digest)).isInstanceOfSatisfying(CctkException.class, e -> {
            assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
            assertThat(e.getMessage()).contains(file.toString(), "SHA-256").doesNotContain("\n");
        });
        TALLY.record("spec swapped after its digest was taken", AdversarialTally.Outcome.CLEAR_ERROR);
    }

    @Test
    void ranksRefuseASpecSwappedAfterTheLauncherWroteIt() throws Exception {
        final Path out = tmp.resolve("out");
        final Path theirs = Files.createDirectory(tmp.resolve("theirs"));
        final StringWriter o = new StringWriter();
        final StringWriter e = new StringWriter();
        final CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> Main.run(new PrintWriter(o),
            new PrintWriter(e), "run", "--nproc", "1", "--collectives", "all_reduce", "--sizes", "1KiB", "--iters",
            "1", "--warmup", "0", "--check-iters", "0", "--grace", "1", "-q", "-o", out.toString()));
        final boolean swappedInTime = swapWhenWritten(out, theirs, run);
        final int code = run.get(100, TimeUnit.SECONDS);
        final boolean ranTheirs = !files(theirs).isEmpty() || code == 0;
        TALLY.record("spec swapped between the launcher and its ranks", !swappedInTime ? AdversarialTally.Outcome.HANG
            : ranTheirs ? AdversarialTally.Outcome.STRANGER_ACCEPTED : AdversarialTally.Outcome.CLEAR_ERROR);
        assertThat(swappedInTime).as("the spec was swapped before the run ended").isTrue();
        assertThat(files(theirs)).as("files written where the swapped spec said").isEmpty();
        assertThat(code).as(o + "\n" + e).isEqualTo(ExitCode.ENVIRONMENT.code());
        assertThat(e.toString()).contains("is not the one 'cctk run' started this rank with");
    }

    /** Rewrites the run's spec as soon as it is written whole, to send the results to {@code theirs}. */
    private static boolean swapWhenWritten(final Path out, final Path theirs, final CompletableFuture<Integer> run)
        throws IOException, InterruptedException {
        while (!run.isDone()) {
            final List<Path> specs = files(out).stream()
                .filter(p -> p.getFileName().toString().startsWith("cctk-run-")).toList();
            final String text = specs.isEmpty() ? "" : Files.readString(specs.get(0));
            if (text.contains(out.toString())) {
                final Path spec = specs.get(0);
                final Path mine = Files.writeString(spec.resolveSibling("swap.tmp"), swapped(text, out, theirs));
                Files.move(mine, spec, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                return true;
            }
            Thread.sleep(1);
        }
        return false;
    }

    private static String swapped(final String yaml, final Path out, final Path theirs) {
        final String s = yaml.replace(out.toString(), theirs.toString());
        assertThat(s).isNotEqualTo(yaml);
        return s;
    }

    private static JobSpec spec(final Path out) {
        return LocalSpecs.fromFlags(new LocalSpecs.Flags(List.of(1), null, List.of("all_reduce"), List.of("1KiB"),
            null, null, 0, 1, 0, null, out, null, null, null));
    }

    /** Every regular file under {@code root}. */
    private static List<Path> files(final Path root) throws IOException {
        if (!Files.exists(root)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).toList();
        }
    }
}
