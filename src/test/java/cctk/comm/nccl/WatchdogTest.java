package cctk.comm.nccl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.ExitCode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The watchdog against a fake communicator: only the driving thread ever calls it (NCCL forbids concurrent calls
 * on one communicator, and ncclCommAbort frees it), it aborts once on an async error or a passed deadline, and
 * the deadline of a wait is one timeout per iteration the wait covers.
 */
@Timeout(30)
class WatchdogTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final int NOT_READY = 600;

    static class FakeComm implements Watchdog.Health {
        volatile int error;
        final AtomicInteger polls = new AtomicInteger();
        final AtomicInteger aborts = new AtomicInteger();
        final List<Thread> callers = new ArrayList<>();

        @Override
        public synchronized int asyncError() {
            callers.add(Thread.currentThread());
            polls.incrementAndGet();
            return error;
        }

        @Override
        public String errorText(final int code) {
            return code == 6 ? "remote process exited or there was a network error" : "error " + code;
        }

        @Override
        public synchronized void abort() {
            callers.add(Thread.currentThread());
            aborts.incrementAndGet();
        }

        /** Every NCCL call the watchdog made came from {@code t}. */
        synchronized boolean onlyFrom(final Thread t) {
            return callers.stream().allMatch(c -> c == t);
        }
    }

    /** The fix of issue #24 item 1: the abort happens on the driving thread, never beside it. */
    @Test
    void anAsyncErrorIsSeenAndAbortedOnTheDrivingThreadOnly() throws Exception {
        final FakeComm c = new FakeComm();
        final Watchdog w = new Watchdog(c, 3, 60 * SECOND);
        final int[] queries = new int[1];
        assertThatThrownBy(() -> w.await("all_reduce of 1048576 bytes on rank 3 (GPU 2)", () -> {
            if (++queries[0] == 50) {
                c.error = 6;
            }
            return NOT_READY;
        }, 1, NOT_READY)).isInstanceOfSatisfying(CctkException.class, e -> {
            assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
            assertThat(e.getMessage()).contains("rank 3", "remote process exited", "ncclResult 6",
                    "all_reduce of 1048576 bytes on rank 3 (GPU 2)", "A peer may have died").doesNotContain("\n");
        });
        Thread.sleep(50); // a background thread, were there one, would have polled by now
        assertThat(c.aborts.get()).isEqualTo(1);
        assertThat(c.onlyFrom(Thread.currentThread())).as("an NCCL call came from another thread").isTrue();
        assertThat(w.aborted()).isTrue();
        w.abort();
        assertThat(c.aborts.get()).as("ncclCommAbort frees the communicator: once only").isEqualTo(1);
    }

    @Test
    void inProgressIsPolledUntilItSettles() {
        final FakeComm c = new FakeComm();
        c.error = Watchdog.IN_PROGRESS;
        final Watchdog w = new Watchdog(c, 0, 60 * SECOND);
        final int r = w.call("ncclGroupEnd", () -> {
            new Thread(() -> {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                c.error = 0;
            }).start();
            return Watchdog.IN_PROGRESS;
        });
        assertThat(r).isZero();
        assertThat(c.polls.get()).isGreaterThan(1);
        assertThat(c.aborts.get()).isZero();
    }

    @Test
    void aCallsOwnErrorIsReturnedNotPolled() {
        final FakeComm c = new FakeComm();
        final Watchdog w = new Watchdog(c, 0, SECOND);
        assertThat(w.call("ncclSend", () -> 4)).isEqualTo(4);
        assertThat(c.polls.get()).isZero();
        assertThat(c.aborts.get()).isZero();
    }

    @Test
    void anErrorThatIsNotRemoteBlamesNoPeer() {
        final FakeComm c = new FakeComm();
        c.error = 1;
        final Watchdog w = new Watchdog(c, 0, SECOND);
        assertThatThrownBy(() -> w.call("ncclCommInitRankConfig on rank 0 (GPU 0, world 1)",
                () -> Watchdog.IN_PROGRESS)).hasMessageContaining("'error 1' (ncclResult 1)")
                .hasMessageNotContaining("peer").hasMessageContaining("nccl.debug: true");
        assertThat(c.aborts.get()).isEqualTo(1);
    }

    @Test
    void aPassedDeadlineAbortsAndSaysWhatWasMeasured() {
        final FakeComm c = new FakeComm();
        final Watchdog w = new Watchdog(c, 1, TimeUnit.MILLISECONDS.toNanos(20));
        assertThatThrownBy(() -> w.await("broadcast of 64 bytes on rank 1 (GPU 0)", () -> NOT_READY, 5, NOT_READY))
                .isInstanceOfSatisfying(CctkException.class, e -> {
                    assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
                    assertThat(e.getMessage()).contains("rank 1", "5 iterations of broadcast of 64 bytes",
                            "had not finished after", "benchmark.timeout per iteration", "NCCL reported no error")
                            .doesNotContain("peer may have died");
                });
        assertThat(c.aborts.get()).isEqualTo(1);
    }

    /** Issue #24 item 6: N pipelined iterations get N timeouts, not one. */
    @Test
    void aWaitForNIterationsGetsNTimeouts() {
        final FakeComm c = new FakeComm();
        final long per = TimeUnit.MILLISECONDS.toNanos(40);
        final Watchdog w = new Watchdog(c, 0, per);
        final long start = System.nanoTime();
        // healthy but slow: 10 iterations taking 3 timeouts in all must not be aborted
        final int r = w.await("all_reduce", () -> System.nanoTime() - start > 3 * per ? 0 : NOT_READY, 10,
                NOT_READY);
        assertThat(r).isZero();
        assertThat(c.aborts.get()).isZero();
    }

    @Test
    void theBudgetScalesWithIterationsAndSaturates() {
        assertThat(Watchdog.budget(30 * SECOND, 1)).isEqualTo(30 * SECOND);
        assertThat(Watchdog.budget(30 * SECOND, 100)).isEqualTo(3000 * SECOND);
        assertThat(Watchdog.budget(30 * SECOND, 0)).as("at least one iteration").isEqualTo(30 * SECOND);
        assertThat(Watchdog.budget(Long.MAX_VALUE / 2, 3)).isEqualTo(Long.MAX_VALUE);
        assertThat(Watchdog.budget(Long.MAX_VALUE, Integer.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void theDeadlineTextNamesIterationsAndTimeSoFar() {
        assertThat(Watchdog.deadlineText(2, "all_gather of 8 bytes on rank 2 (GPU 1)", 20, 615_400_000_000L,
                30 * SECOND)).startsWith("The nccl backend aborted rank 2's communicator: 20 iterations of"
                + " all_gather of 8 bytes on rank 2 (GPU 1) had not finished after 615.4 s (deadline 20 × 30 s,"
                + " benchmark.timeout per iteration); NCCL reported no error.");
        assertThat(Watchdog.deadlineText(0, "close", 1, 31 * SECOND, 30 * SECOND))
                .contains("close had not finished after 31.0 s (deadline 30 s, benchmark.timeout)");
    }
}
