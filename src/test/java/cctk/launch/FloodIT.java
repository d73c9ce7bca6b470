package cctk.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import cctk.AdversarialTally;
import cctk.AdversarialTally.Outcome;
import cctk.Ownership;
import cctk.Strangers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The connection flood of a hostile second user, for real: {@code bench/flood.py} runs as uid {@value
 * Strangers#UID} (setpriv), reads this user's listening ports from /proc/net/tcp(6) and keeps 300 silent connections
 * on each, reconnecting the moment one is closed, while {@code java -jar target/cctk.jar run} measures. Five flooded
 * runs per backend must all exit 0 with every row measured and right, and no rank may be blamed. The times, beside
 * an unflooded run's, are printed (bench/flood.sh makes the figure with repeats). Needs root (to become the other
 * user); elsewhere it fails, or skips loudly with {@code -Dcctk.flood.skip=true}. Area {@code floods (a second
 * user)}.
 */
@Tag("slow")
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class FloodIT {

    private static final AdversarialTally TALLY = new AdversarialTally("floods (a second user)");
    private static final int PER_PORT = 300;
    private static final int RUNS = 5;

    @AfterAll
    static void report() {
        if (TALLY.inputs() > 0) {
            TALLY.report();
        }
        assertThat(TALLY.failures()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp-flat", "tcp"})
    void fiveFloodedRunsCompleteRightAndBlameNobody(final String backend) throws Exception {
        needRoot();
        final Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "flood-");
        final double clean = run(dir, backend, "clean", false).seconds;
        final List<String> times = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            final Result r = run(dir, backend, "flooded-" + i, true);
            times.add(String.format("%.1f", r.seconds));
            final boolean ok = r.exit == 0 && r.rows > 0 && r.wrong == 0 && r.blame.isEmpty();
            TALLY.record(backend + " W=4, " + PER_PORT + " silent connections per port, run " + (i + 1),
                    ok ? Outcome.HANDLED : r.exit != 0 ? Outcome.ROWS_LOST : Outcome.WRONG_EXIT_CODE);
            assertThat(r.exit).as("exit of flooded run %d; log:%n%s", i + 1, r.log).isZero();
            assertThat(r.rows).as("rows of flooded run %d", i + 1).isPositive();
            assertThat(r.wrong).as("#wrong of flooded run %d", i + 1).isZero();
            assertThat(r.blame).as("ranks blamed in flooded run %d", i + 1).isEmpty();
        }
        System.out.printf("flood | %s W=4 | %d per port | clean %.1f s | flooded %s s%n", backend, PER_PORT, clean,
                String.join(", ", times));
    }

    private static void needRoot() {
        if (Ownership.me() == 0) {
            return;
        }
        final String text = "FloodIT runs the stranger as uid " + Strangers.UID + " and needs root to become it"
                + " (setpriv): run mvn verify as root";
        if (Boolean.getBoolean("cctk.flood.skip")) {
            final String bar = "!".repeat(100);
            System.out.println(bar + "\n!! SKIPPED, NOT PASSED (-Dcctk.flood.skip=true): " + text + "\n" + bar);
            Assumptions.abort("SKIPPED, NOT PASSED: " + text);
        }
        fail(text + " (or skip it, loudly, with -Dcctk.flood.skip=true).");
    }

    private record Result(int exit, double seconds, int rows, long wrong, List<String> blame, String log) {
    }

    /**
     * A copy of {@code file} the stranger can read wherever the checkout lies: a clone inside an owner-only
     * directory (a {@code mktemp -d}) is closed to every other user, the script in it too.
     */
    private static Path strangersCopy(final Path file) throws IOException {
        final Path d = Files.createTempDirectory("cctk-flood-", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        final Path copy = Files.copy(file, d.resolve(file.getFileName()));
        Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("r--r--r--"));
        copy.toFile().deleteOnExit();
        d.toFile().deleteOnExit();
        return copy;
    }

    private static Result run(final Path dir, final String backend, final String tag, final boolean flood)
            throws IOException, InterruptedException {
        final Path out = dir.resolve(tag);
        final Path spec = dir.resolve(tag + ".yaml");
        Files.writeString(spec, "job: {name: flood, time_limit: \"00:05:00\", output_dir: \"" + out + "\"}\n"
                + "resources: {nodes: 1, tasks_per_node: 4}\n"
                + "benchmark:\n  backends: [" + backend + "]\n  tasks: [4]\n"
                + "  collectives: [all_reduce, all_gather, broadcast, alltoall]\n"
                + "  sizes: {min: 1KiB, max: 1MiB, factor: 32}\n  repeats: 1\n  timeout: 30s\n");
        Process stranger = null;
        if (flood) {
            final Path script = strangersCopy(Path.of("bench", "flood.py"));
            stranger = new ProcessBuilder("setpriv", "--reuid=" + Strangers.UID, "--regid=" + Strangers.UID,
                    "--clear-groups", "/usr/bin/python3", script.toString(),
                    "--uid", "0", "--per-port", String.valueOf(PER_PORT), "--seconds", "600")
                    .directory(script.getParent().toFile())
                    .redirectErrorStream(true).redirectOutput(dir.resolve(tag + ".flood.log").toFile()).start();
            Thread.sleep(500);
            assertThat(stranger.isAlive()).as("the stranger runs: %s", Files.readString(dir.resolve(tag
                    + ".flood.log"))).isTrue();
        }
        try {
            final long start = System.nanoTime();
            final Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-jar", System.getProperty("cctk.jar", "target/cctk.jar"), "run", spec.toString())
                    .redirectErrorStream(true).start();
            final String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            final boolean ended = p.waitFor(300, TimeUnit.SECONDS);
            final double seconds = (System.nanoTime() - start) / 1e9;
            if (!ended) {
                p.destroyForcibly();
                TALLY.record(backend + " " + tag, Outcome.HANG);
            }
            int rows = 0;
            long wrong = 0;
            if (Files.isDirectory(out)) {
                try (Stream<Path> files = Files.list(out)) {
                    for (final Path csv : files.filter(f -> f.toString().endsWith(".csv")).toList()) {
                        final List<String> lines = Files.readAllLines(csv);
                        final int col = List.of(lines.get(0).split(",")).indexOf("wrong");
                        for (final String line : lines.subList(1, lines.size())) {
                            rows++;
                            final String cell = line.split(",")[col];
                            wrong += cell.isEmpty() ? 0 : Long.parseLong(cell);
                        }
                    }
                }
            }
            final List<String> blame = log.lines().filter(l -> l.matches(".*\\branks? [0-9, ]+ did not join.*")
                    || l.contains("probably died") || l.contains("stalled or died")).toList();
            return new Result(ended ? p.exitValue() : -1, seconds, rows, wrong, blame, log);
        } finally {
            if (stranger != null) {
                stranger.destroy();
                stranger.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
