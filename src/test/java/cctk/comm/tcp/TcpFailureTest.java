package cctk.comm.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.MemoryStore;
import cctk.comm.ReduceOp;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Dead and stalled peers, bad interface names, loopback in multi-node jobs, striping over several NICs. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TcpFailureTest {

    @Test
    void aPeerThatDiesIsNamedWithinTheDeadline() throws Exception {
        final long t0 = System.nanoTime();
        final List<Future<Object>> ranks = LocalWorld.submit(3, LocalWorld.options(Duration.ofSeconds(20)), comm -> {
            final CommBuffer b = comm.allocate(4 << 20);
            comm.allReduce(b, b, 1 << 20, DType.FLOAT32, ReduceOp.SUM); // connected now
            if (comm.rank() == 2) {
                comm.close(); // the sockets close as when the process dies
                return null;
            }
            for (int i = 0; i < 100; i++) {
                comm.allReduce(b, b, 1 << 20, DType.FLOAT32, ReduceOp.SUM);
            }
            return null;
        });
        final Throwable rank0 = failure(ranks.get(0));
        assertThat(rank0).isInstanceOf(CctkException.class).hasMessageContaining("rank 2");
        assertThat(((CctkException) rank0).exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
        assertThat(failure(ranks.get(1))).isInstanceOf(CctkException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(20));
    }

    @Test
    void aPeerThatNeverConnectsIsNamedInTheWordsOfAStall() throws Exception {
        final CountDownLatch othersFailed = new CountDownLatch(1);
        final List<Future<Object>> ranks = LocalWorld.submit(3, LocalWorld.options(Duration.ofSeconds(2)), comm -> {
            if (comm.rank() == 2) {
                // connects nobody until the others have given up: its collective comes too late
                assertThat(othersFailed.await(60, TimeUnit.SECONDS)).isTrue();
                return null;
            }
            final CommBuffer b = comm.allocate(1024);
            comm.allReduce(b, b, 256, DType.FLOAT32, ReduceOp.SUM);
            return null;
        });
        final Throwable rank0 = failure(ranks.get(0));
        final Throwable rank1 = failure(ranks.get(1));
        othersFailed.countDown();
        // Blame's words (cctk.bench.Blame): a rank waited for, not sending
        assertThat(rank0).isInstanceOf(CctkException.class).hasMessageContaining("rank 0 waited 2.0 s")
                .hasMessageContaining("during all_reduce for rank 2 (not sending) [no connection to");
        assertThat(rank1.getMessage()).containsPattern("rank 2 \\(not (sending|reading)\\)");
        ranks.get(2).get(30, TimeUnit.SECONDS);
    }

    @Test
    void aPeerThatStallsIsNamedWhenTheDeadlinePasses() throws Exception {
        final long t0 = System.nanoTime();
        final CountDownLatch named = new CountDownLatch(1);
        final List<Future<Object>> ranks = LocalWorld.submit(2, LocalWorld.options(Duration.ofSeconds(2)), comm -> {
            final CommBuffer b = comm.allocate(1024);
            if (comm.rank() == 1) {
                assertThat(named.await(60, TimeUnit.SECONDS)).isTrue(); // stalls until rank 0 has named it
                return null;
            }
            comm.allReduce(b, b, 256, DType.FLOAT32, ReduceOp.SUM);
            return null;
        });
        final Throwable rank0 = failure(ranks.get(0));
        final long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
        named.countDown();
        assertThat(rank0).isInstanceOf(CctkException.class).hasMessageContaining("rank 1")
                .hasMessageContaining("all_reduce");
        assertThat(seconds).isBetween(1L, 5L);
        ranks.get(1).get(30, TimeUnit.SECONDS);
    }

    @Test
    void anUnknownInterfaceNamesTheHostAndTheInterface() {
        final TcpOptions options = new TcpOptions(List.of("nosuchnic7"), false, Duration.ofSeconds(5), 0, "t", LocalWorld.SECRET);
        assertThatThrownBy(() -> TcpCommunicator.connect(options, 0, 1, new MemoryStore(1, Duration.ofSeconds(5))))
                .isInstanceOf(CctkException.class)
                .hasMessageContaining("nosuchnic7").hasMessageContaining(NicAddresses.hostName())
                .satisfies(e -> assertThat(((CctkException) e).exitCode()).isEqualTo(ExitCode.ENVIRONMENT));
    }

    @Test
    void loopbackIsRefusedForAMultiNodeJob() {
        final TcpOptions options = new TcpOptions(List.of("lo"), true, Duration.ofSeconds(5), 0, "t", LocalWorld.SECRET);
        assertThatThrownBy(() -> TcpCommunicator.connect(options, 0, 2, new MemoryStore(2, Duration.ofSeconds(5))))
                .isInstanceOf(CctkException.class).hasMessageContaining("loopback").hasMessageContaining("'lo'");
    }

    @Test
    void trafficStripesOverSeveralInterfaces() throws Exception {
        final TcpOptions options = new TcpOptions(List.of("lo", "lo"), false, Duration.ofSeconds(20), 0, "stripe", LocalWorld.SECRET);
        final int count = 6 * Transfers.STAGE + 1; // each stripe of a ring block wraps the staging ring
        final List<Float> firsts = LocalWorld.run(3, options, comm -> {
            final CommBuffer b = TcpCollectivesTest.filled(comm, DType.FLOAT32, ReduceOp.SUM, count);
            comm.allReduce(b, b, count, DType.FLOAT32, ReduceOp.SUM);
            final java.util.ArrayList<String> bad = new java.util.ArrayList<>();
            TcpCollectivesTest.expect(b, ReferenceData.reduced(DType.FLOAT32, ReduceOp.SUM, 3, 0, count), "striped", bad);
            assertThat(bad).isEmpty();
            assertThat(comm.links[(comm.rank() + 1) % 3]).hasSize(2);
            return 1f;
        });
        assertThat(firsts).containsExactly(1f, 1f, 1f);
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
