package cctk.comm.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.MemoryStore;
import cctk.comm.ReduceOp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Peers that leave or stall (ranks as threads; real processes are in {@link ShmProcessesIT}), in the words the
 * tcp backend uses and cctk.bench.Blame reads; bad arguments; a directory that is not there.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShmFailureTest {

    /** Blame's patterns (cctk.bench.Blame): a peer waited for, and a peer lost. */
    private static final Pattern WAITED_FOR = Pattern.compile(
            "rank (\\d+) \\(not (?:reading|sending)\\)(?: over ([^ ,;(]+))?");
    private static final Pattern DIED = Pattern.compile("rank (\\d+) probably died");
    private static final Pattern WAITED = Pattern.compile("waited ([0-9.]+) s");

    private Path dir;

    @BeforeEach
    void directory() throws Exception {
        dir = ShmWorld.directory();
    }

    @AfterEach
    void clean() throws Exception {
        assertThat(ShmWorld.files(dir)).isEmpty();
        ShmWorld.delete(dir);
    }

    @Test
    void aPeerThatLeavesIsNamedLongBeforeTheDeadline() throws Exception {
        final List<Future<Object>> ranks = ShmWorld.submit(3, ShmWorld.options(dir, Duration.ofSeconds(60)), comm -> {
            final CommBuffer b = comm.allocate(4 << 20);
            comm.allReduce(b, b, 1 << 20, DType.FLOAT32, ReduceOp.SUM);
            if (comm.rank() == 2) {
                return null; // closes its communicator, as a dying process's group sees it
            }
            for (int i = 0; i < 100; i++) {
                comm.allReduce(b, b, 1 << 20, DType.FLOAT32, ReduceOp.SUM);
            }
            return null;
        });
        for (final int r : new int[] {0, 1}) {
            final Throwable e = failure(ranks.get(r));
            assertThat(e).isInstanceOf(CctkException.class);
            assertThat(((CctkException) e).exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
            final var died = DIED.matcher(e.getMessage());
            assertThat(died.find()).as(e.getMessage()).isTrue();
            assertThat(died.group(1)).isEqualTo("2");
            assertThat(e.getMessage()).contains("rank " + r + ":").contains("all_reduce of 4194304 bytes of float32")
                    .doesNotContain("waited"); // named by its leaving, not at the deadline
        }
    }

    @Test
    void aPeerThatStallsIsNamedWhenTheDeadlinePasses() throws Exception {
        final CountDownLatch named = new CountDownLatch(1);
        final List<Future<Object>> ranks = ShmWorld.submit(2, ShmWorld.options(dir, Duration.ofSeconds(1)), comm -> {
            final CommBuffer b = comm.allocate(1024);
            if (comm.rank() == 1) {
                assertThat(named.await(60, TimeUnit.SECONDS)).isTrue(); // stalls until rank 0 has named it
                return null;
            }
            comm.allReduce(b, b, 256, DType.FLOAT32, ReduceOp.SUM);
            return null;
        });
        final Throwable e = failure(ranks.get(0));
        named.countDown();
        assertThat(e).isInstanceOf(CctkException.class);
        final var waited = WAITED_FOR.matcher(e.getMessage());
        assertThat(waited.find()).as(e.getMessage()).isTrue();
        assertThat(waited.group(1)).isEqualTo("1");
        assertThat(waited.group(2)).as("no NIC named").isNull();
        assertThat(WAITED.matcher(e.getMessage()).find()).isTrue();
        assertThat(e.getMessage()).contains("(not sending)").contains("all_reduce of 1024 bytes of float32");
        ranks.get(1).get(30, TimeUnit.SECONDS);
    }

    /** After rank 1 has left, a fresh wait would name it as dead; the broken group repeats its first failure. */
    @Test
    void aBrokenGroupFailsEveryLaterCallWithItsFirstFailure() throws Exception {
        final CountDownLatch failed = new CountDownLatch(1);
        final CountDownLatch left = new CountDownLatch(1);
        final List<Future<String>> ranks = ShmWorld.submit(2, ShmWorld.options(dir, Duration.ofSeconds(1)), comm -> {
            if (comm.rank() == 1) {
                assertThat(failed.await(60, TimeUnit.SECONDS)).isTrue(); // stalls past rank 0's deadline
                comm.close();
                left.countDown();
                return null;
            }
            final String first = message(comm::barrier);
            failed.countDown();
            assertThat(left.await(30, TimeUnit.SECONDS)).isTrue();
            final String second = message(comm::barrier);
            assertThat(second).isEqualTo(first).doesNotContain("probably died");
            return first;
        });
        assertThat(ranks.get(0).get(30, TimeUnit.SECONDS)).contains("rank 1 (not sending)").contains("barrier");
        ranks.get(1).get(30, TimeUnit.SECONDS);
    }

    @Test
    void ranksAreNamedByTheirWorldRanks() throws Exception {
        final ShmOptions named = ShmWorld.options(dir, Duration.ofSeconds(1)).namingRanks(List.of(4, 6));
        final CountDownLatch failed = new CountDownLatch(1);
        final List<Future<String>> ranks = ShmWorld.submit(2, named, comm -> {
            if (comm.rank() == 1) {
                assertThat(failed.await(60, TimeUnit.SECONDS)).isTrue(); // stalls past rank 0's deadline
                return comm.transports();
            }
            final String m = message(comm::barrier);
            failed.countDown();
            return m;
        });
        assertThat(ranks.get(0).get(30, TimeUnit.SECONDS)).startsWith("rank 4 waited")
                .contains("rank 6 (not sending)");
        assertThat(ranks.get(1).get(30, TimeUnit.SECONDS)).startsWith("shm to rank 4 (zero-copy;");
    }

    @Test
    void badArgumentsAreUsageErrors() throws Exception {
        ShmWorld.run(2, ShmWorld.options(dir, Duration.ofSeconds(20)), comm -> {
            final CommBuffer b = comm.allocate(64);
            assertThatThrownBy(() -> comm.allReduce(b, b, 100, DType.FLOAT32, ReduceOp.SUM))
                    .isInstanceOf(CctkException.class).hasMessageContaining("too small")
                    .satisfies(e -> assertThat(((CctkException) e).exitCode()).isEqualTo(ExitCode.USAGE));
            assertThatThrownBy(() -> comm.allReduce(b.slice(2, 40), b.slice(2, 40), 4, DType.FLOAT32,
                    ReduceOp.SUM)).isInstanceOf(CctkException.class).hasMessageContaining("multiple of 4");
            assertThatThrownBy(() -> comm.broadcast(b, b, 4, DType.FLOAT32, 2))
                    .isInstanceOf(CctkException.class).hasMessageContaining("root 2");
            assertThatThrownBy(() -> comm.allocate(-1)).isInstanceOf(CctkException.class);
            comm.barrier(); // the group still works: usage errors break nothing
            return null;
        });
    }

    @Test
    void aMissingDirectoryIsAnEnvironmentError() {
        final ShmOptions o = ShmWorld.options(dir.resolve("nope"), Duration.ofSeconds(5));
        assertThatThrownBy(() -> ShmCommunicator.connect(o, 0, 1, new MemoryStore(1, Duration.ofSeconds(5))))
                .isInstanceOf(CctkException.class).hasMessageContaining("nope")
                .satisfies(e -> assertThat(((CctkException) e).exitCode()).isEqualTo(ExitCode.ENVIRONMENT));
    }

    @Test
    void aTooSmallDirectoryNamesWhatWasNeededAndWhatIsFree() {
        final CctkException e = SegmentFiles.tooSmall("rank 3", dir, 3L << 30, 1L << 20);
        assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
        assertThat(e.getMessage()).contains("rank 3 needs 3221225472 bytes (3072 MiB)")
                .contains("only 1048576 bytes (1 MiB) are free").contains(dir.toString());
    }

    private static String message(final Runnable r) {
        try {
            r.run();
        } catch (final CctkException e) {
            return e.getMessage();
        }
        throw new AssertionError("no failure");
    }

    private static Throwable failure(final Future<?> f) throws Exception {
        try {
            f.get(60, TimeUnit.SECONDS);
        } catch (final ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("the rank finished without an error");
    }
}
