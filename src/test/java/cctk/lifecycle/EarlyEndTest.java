package cctk.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.AdversarialTally;
import cctk.launch.LocalLauncher;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real rank processes ({@link LocalLauncher}, as {@code cctk run} starts them) ended early mid-sweep: SIGTERM
 * (what scancel and Slurm's time limit send) and SIGUSR1 (the time-limit warning) keep every row measured
 * before the signal in final files with a true Incomplete line; a rank frozen with SIGSTOP is named, with the
 * collective and size it stalled on.
 */
@Timeout(180)
class EarlyEndTest {

    private static final AdversarialTally TALLY = new AdversarialTally("signals");

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @AfterAll
    static void report() {
        TALLY.report();
    }

    private Path spec(final int ranks, final int timeoutS) throws IOException {
        final Path spec = dir.resolve("spec.yaml");
        Files.writeString(spec, """
                job:
                  name: early-end
                  time_limit: "00:10:00"
                  output_dir: %s
                cluster:
                  name: local
                  partition: debug
                  java: java
                  jar: target/cctk.jar
                resources:
                  nodes: 1
                  tasks_per_node: %d
                  cpus_per_task: 1
                benchmark:
                  backends: [tcp]
                  tasks: [%d]
                  collectives: [all_reduce, all_gather]
                  sizes: {min: 1KiB, max: 256MiB, factor: 2}
                  dtypes: [float32]
                  ops: [sum]
                  warmup: 1
                  iters: 20
                  check_iters: 1
                  jit_warmup: 0
                  timeout: %ds
                """.formatted(dir.resolve("results"), ranks, ranks, timeoutS));
        return spec;
    }

    private CompletableFuture<Integer> launch(final int ranks, final Path spec) {
        return launch(ranks, spec, java.util.Map.of());
    }

    private CompletableFuture<Integer> launch(final int ranks, final Path spec, final java.util.Map<String, String> env) {
        return CompletableFuture.supplyAsync(() -> new LocalLauncher(new PrintWriter(out, true),
                new PrintWriter(err, true), Duration.ofSeconds(1))
                .run(ranks, LocalLauncher.cctkCommand(List.of("rank", "--spec", spec.toString())), env));
    }

    /** Waits until the CSV part file holds {@code rows} rows; returns its lines then. */
    private List<String> rowsAtLeast(final int rows, final CompletableFuture<Integer> run) throws Exception {
        final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < until && !run.isDone()) {
            final Path csv = find(".csv.part");
            if (csv != null) {
                final List<String> lines = Files.readAllLines(csv);
                if (lines.size() > rows) {
                    return lines;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("fewer than " + rows + " rows within 90 s or before the ranks ended; " + err);
    }

    private Path find(final String suffix) throws IOException {
        final Path results = dir.resolve("results");
        if (!Files.isDirectory(results)) {
            return null;
        }
        try (Stream<Path> s = Files.list(results)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).findFirst().orElse(null);
        }
    }

    /** The pid of {@code rank}, from the header of the text part file. */
    private long pid(final int rank) throws IOException {
        final Matcher m = Pattern.compile("rank " + rank + " host \\S+ pid ([0-9]+)")
                .matcher(Files.readString(find(".txt.part")));
        assertThat(m.find()).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static void signal(final String name, final long pid) throws Exception {
        final Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    private void signalEndsWithRowsKept(final String signal, final String cause) throws Exception {
        signalEndsWithRowsKept(signal, cause, java.util.Map.of());
    }

    private void signalEndsWithRowsKept(final String signal, final String cause, final java.util.Map<String, String> env)
            throws Exception {
        final CompletableFuture<Integer> run = launch(2, spec(2, 30), env);
        final List<String> before = rowsAtLeast(3, run);
        final List<Long> pids = new ArrayList<>(List.of(pid(0), pid(1)));
        for (final long p : pids) {
            signal(signal, p);
        }
        final int code = run.get(60, TimeUnit.SECONDS);
        final Path txt = find(".txt");
        final String text = txt == null ? "" : Files.readString(txt);
        final List<String> after = find(".csv") == null ? List.of() : Files.readAllLines(find(".csv"));
        final boolean kept = after.containsAll(before);
        TALLY.record(signal + " to both ranks mid-sweep", code == 1 && text.contains("# Incomplete: " + cause)
                ? AdversarialTally.Outcome.HANDLED : code != 1 ? AdversarialTally.Outcome.WRONG_EXIT_CODE
                : AdversarialTally.Outcome.ROWS_LOST);
        assertThat(find(".part")).as("no part files left; %s", err).isNull();
        assertThat(find(".cause")).as("rank 0 finished the files: no other rank's cause file left; %s", err).isNull();
        assertThat(text).as(err.toString()).contains("# Incomplete: " + cause);
        assertThat(after).as("every row measured before SIG%s", signal).containsAll(before);
        assertThat(code).as(err.toString()).isEqualTo(1);
        assertThat(Files.readString(find(".json"))).contains("\"status\": \"INCOMPLETE\"")
                .contains("\"error\": \"" + cause);
        assertThat(kept).isTrue();
    }

    @Test
    void sigtermKeepsEveryRowAndSaysCancelled() throws Exception {
        signalEndsWithRowsKept("TERM", "cancelled: SIGTERM");
    }

    @Test
    void theTimeLimitWarningKeepsEveryRowAndSaysTimeLimit() throws Exception {
        signalEndsWithRowsKept("USR1", "time limit");
    }

    /**
     * {@code scancel --signal=USR1} 47 s into a 10-minute job: Slurm's job end (SLURM_JOB_END_TIME, as Slurm sets
     * it in the job's environment) is more than 9 minutes away, far more than the 60 s warning the script asks for.
     */
    @Test
    void aUsr1LongBeforeTheLimitIsNotCalledTheTimeLimit() throws Exception {
        final long end = System.currentTimeMillis() / 1000 + 600 - 47;
        signalEndsWithRowsKept("USR1", "a USR1 signal (not the time-limit warning: ", java.util.Map.of(
                "SLURM_JOB_END_TIME", Long.toString(end)));
    }

    /** The warning itself, with the job's end 50 s away (the script asks for it 60 s before a 10-minute limit). */
    @Test
    void aUsr1NearTheLimitIsTheTimeLimitWarning() throws Exception {
        final long end = System.currentTimeMillis() / 1000 + 50;
        signalEndsWithRowsKept("USR1", "time limit", java.util.Map.of("SLURM_JOB_END_TIME", Long.toString(end)));
    }

    @Test
    void theTimeLeftTellsTheWarningFromAUsr1ByHand() {
        final long now = 1_800_000_000L;
        assertThat(EarlyEnd.isWarning(now, now + 553, 60)).as("47 s into 10 minutes").isFalse();
        assertThat(EarlyEnd.isWarning(now, now + 115, 60)).as("Slurm may warn up to 60 s early").isTrue();
        assertThat(EarlyEnd.isWarning(now, now + 50, 60)).isTrue();
        assertThat(EarlyEnd.isWarning(now, 0, 60)).as("end unknown: a limit, so the warning").isTrue();
        assertThat(EarlyEnd.isWarning(now, 0, 0)).as("no time limit: no warning comes").isFalse();
        assertThat(EarlyEnd.cause("USR1", false, 553)).startsWith("a USR1 signal (not the time-limit warning: 553 s");
    }

    @Test
    void aFrozenRankIsNamedWithTheCollectiveAndSize() throws Exception {
        final CompletableFuture<Integer> run = launch(3, spec(3, 4));
        final List<String> before = rowsAtLeast(2, run);
        final long frozen = pid(2);
        try {
            signal("STOP", frozen);
            final int code = run.get(90, TimeUnit.SECONDS);
            assertThat(find(".txt")).as("final text file; %s", err).isNotNull();
            final String text = Files.readString(find(".txt"));
            final Matcher line = Pattern.compile("# Incomplete: (.*)").matcher(text);
            assertThat(line.find()).as(text).isTrue();
            final String blame = "rank 2 stalled \\(ranks 0, 1 waited [0-9.]+ s for it\\)"
                    + " during all_(reduce float32 sum|gather float32) [0-9]+ B( over lo| in shared memory)?";
            final boolean named = line.group(1).matches(blame);
            TALLY.record("SIGSTOP of rank 2 of 3", named && code == 3 ? AdversarialTally.Outcome.HANDLED
                    : code != 3 ? AdversarialTally.Outcome.WRONG_EXIT_CODE : AdversarialTally.Outcome.CLEAR_ERROR);
            assertThat(line.group(1)).as(err.toString()).matches(blame);
            assertThat(Files.readAllLines(find(".csv"))).containsAll(before);
            assertThat(code).isEqualTo(3);
        } finally {
            signal("CONT", frozen);
            ProcessHandle.of(frozen).ifPresent(ProcessHandle::destroyForcibly);
        }
    }
}
