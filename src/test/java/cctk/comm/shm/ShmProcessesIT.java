package cctk.comm.shm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ranks as separate JVMs meeting in /dev/shm: every collective checked; a rank killed with SIGKILL named by the
 * others as dead long before the deadline, with no segment left once the survivors have closed (its files too: they
 * sweep what dead processes left); a rank frozen with SIGSTOP named as stalled when the deadline passes.
 */
@Tag("slow")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ShmProcessesIT {

    @TempDir
    Path store;
    private Path dir;
    private final List<Process> ranks = new ArrayList<>();

    @BeforeEach
    void directory() throws Exception {
        dir = ShmWorld.directory();
    }

    @AfterEach
    void clean() throws Exception {
        for (final Process p : ranks) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        ShmWorld.delete(dir);
    }

    @Test
    void processesRunEveryCollectiveThroughSharedMemory() throws Exception {
        start(3, 60, "check");
        for (final Process p : ranks) {
            assertThat(p.waitFor(240, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(stderr(p)).isZero();
        }
        assertThat(ShmWorld.files(dir)).as("segments left by ranks that closed").isEmpty();
    }

    @Test
    void aRankKilledMidCollectiveIsNamedByTheOthersLongBeforeTheDeadline() throws Exception {
        start(3, 120, "loop");
        awaitReady();
        final long t0 = System.nanoTime();
        ranks.get(2).destroyForcibly(); // SIGKILL
        final List<String> errors = survivors(List.of(0, 1), 3);
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0)).as("named long before the 120 s deadline")
                .isLessThan(60);
        for (final String e : errors) {
            assertThat(e).contains("rank 2").contains("probably died").contains("all_reduce of 16777216 bytes");
        }
        // what the survivors made they unlinked when they closed; what the killed rank made and not every peer
        // has mapped yet (its last buffers, when killed early) is the sweep's
        ShmCommunicator.cleanStale(dir);
        assertThat(ShmWorld.files(dir)).isEmpty();
    }

    @Test
    void aRankKilledBeforeItsPeersMappedItsBuffersLeavesFilesTheSurvivorsRemove() throws Exception {
        start(List.of(0, 1), 3, 120, "loop");
        start(List.of(2), 3, 120, "hold");
        // the survivors have allocated their buffers (and mapped what peers had published) before they say ready;
        // only then does the held rank make its two, which no peer maps: its collectives never come
        awaitReady(List.of(0, 1));
        final OutputStream go = ranks.get(2).getOutputStream();
        go.write("go\n".getBytes(StandardCharsets.UTF_8));
        go.flush();
        awaitReady(List.of(2));
        final long held = ranks.get(2).pid();
        assertThat(SegmentsOnDisk.in(dir).stream().filter(g -> g.pid() == held).count())
                .as("the files of the held rank's last two buffers, which no peer has mapped").isEqualTo(2);
        ranks.get(2).destroyForcibly();
        for (final String e : survivors(List.of(0, 1), 3)) {
            assertThat(e).contains("rank 2 (process " + held + ") is gone").contains("probably died");
        }
        // the survivors' groups broke: closing, they swept the directory for what dead processes left
        assertThat(ShmWorld.files(dir)).as("files left once the survivors closed").isEmpty();
        assertThat(ShmCommunicator.cleanStale(dir)).isZero();
    }

    @Test
    void aFrozenRankIsNamedAsStalledAtTheDeadline() throws Exception {
        start(3, 3, "loop");
        awaitReady();
        signal("STOP", ranks.get(1).pid());
        final List<String> errors = survivors(List.of(0, 2), 3);
        signal("CONT", ranks.get(1).pid());
        final String all = String.join("\n", errors);
        assertThat(all).containsPattern("rank 1 \\(not (sending|reading)\\)").contains("waited 3.0 s")
                .doesNotContain("rank 1 probably died");
        ranks.get(1).destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        ShmCommunicator.cleanStale(dir);
        assertThat(ShmWorld.files(dir)).isEmpty();
    }

    private void start(final int world, final int deadlineSeconds, final String mode) throws Exception {
        final List<Integer> all = new ArrayList<>();
        for (int r = 0; r < world; r++) {
            all.add(r);
        }
        start(all, world, deadlineSeconds, mode);
    }

    private void start(final List<Integer> which, final int world, final int deadlineSeconds, final String mode)
            throws Exception {
        Files.createDirectories(store);
        for (final int r : which) {
            ranks.add(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), ShmRankMain.class.getName(),
                    Integer.toString(r), Integer.toString(world), store.toString(), dir.toString(),
                    Integer.toString(deadlineSeconds), mode).start());
        }
    }

    private void awaitReady() throws Exception {
        final List<Integer> all = new ArrayList<>();
        for (int r = 0; r < ranks.size(); r++) {
            all.add(r);
        }
        awaitReady(all);
    }

    private void awaitReady(final List<Integer> which) throws Exception {
        for (final int r : which) {
            final Process p = ranks.get(r);
            final BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8));
            assertThat(out.readLine()).as(() -> stderr(p)).endsWith("ready");
        }
    }

    /** The stderr of ranks {@code which}, once each has exited with {@code status}. */
    private List<String> survivors(final List<Integer> which, final int status) throws Exception {
        final List<String> errors = new ArrayList<>();
        for (final int r : which) {
            final Process p = ranks.get(r);
            assertThat(p.waitFor(200, TimeUnit.SECONDS)).as("rank " + r + " ended").isTrue();
            final String err = stderr(p);
            assertThat(p.exitValue()).as(err).isEqualTo(status);
            errors.add(err);
        }
        return errors;
    }

    private static void signal(final String name, final long pid) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start().waitFor()).isZero();
    }

    private static String stderr(final Process p) {
        try {
            return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (final java.io.IOException e) {
            return e.toString();
        }
    }
}
