package cctk.comm.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The watchdog against a fake communicator: aborts on an async error or a passed deadline, never when idle. */
@Timeout(30)
class WatchdogTest {

    static class FakeComm implements Watchdog.Health {
        volatile int error;
        final AtomicInteger polls = new AtomicInteger();
        final AtomicInteger aborts = new AtomicInteger();

        @Override
        public int asyncError() {
            polls.incrementAndGet();
            return error;
        }

        @Override
        public String errorText(final int code) {
            return code == 6 ? "remote process exited or there was a network error" : "error " + code;
        }

        @Override
        public void abort() {
            aborts.incrementAndGet();
        }
    }

    private static void waitFor(final Watchdog w) throws InterruptedException {
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (w.reason() == null && System.nanoTime() < end) {
            Thread.sleep(5);
        }
    }

    @Test
    void anAsyncErrorAbortsAndNamesTheOperation() throws Exception {
        final FakeComm c = new FakeComm();
        try (Watchdog w = new Watchdog(c, 5, "t")) {
            w.arm("all_reduce of 1048576 bytes on rank 3 (GPU 2)", TimeUnit.SECONDS.toNanos(60));
            c.error = 7; // in progress is not an error
            awaitPolls(c, 5);
            assertThat(w.reason()).isNull();
            c.error = 6;
            waitFor(w);
            assertThat(w.reason()).contains("remote process exited", "ncclResult 6",
                    "all_reduce of 1048576 bytes on rank 3 (GPU 2)");
            // the watchdog stops once it has aborted: with its thread gone, one abort is all there can be
            final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (w.running() && System.nanoTime() < end) {
                Thread.sleep(2);
            }
            assertThat(w.running()).isFalse();
            assertThat(c.aborts.get()).isEqualTo(1);
        }
    }

    @Test
    void aPassedDeadlineAborts() throws Exception {
        final FakeComm c = new FakeComm();
        try (Watchdog w = new Watchdog(c, 5, "t")) {
            w.arm("broadcast of 64 bytes on rank 1 (GPU 0)", TimeUnit.MILLISECONDS.toNanos(100));
            waitFor(w);
            assertThat(w.reason()).isEqualTo("broadcast of 64 bytes on rank 1 (GPU 0) did not finish before the"
                    + " deadline");
            assertThat(c.aborts.get()).isEqualTo(1);
        }
    }

    private static void awaitPolls(final FakeComm c, final int more) throws InterruptedException {
        final int target = c.polls.get() + more;
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (c.polls.get() < target && System.nanoTime() < end) {
            Thread.sleep(2);
        }
        assertThat(c.polls.get()).isGreaterThanOrEqualTo(target);
    }

    @Test
    void disarmedItKeepsNoDeadline() throws Exception {
        final FakeComm c = new FakeComm();
        try (Watchdog w = new Watchdog(c, 5, "t")) {
            w.arm("reduce", TimeUnit.MILLISECONDS.toNanos(1));
            w.disarm();
            awaitPolls(c, 20); // 20 polls, each well past the 1 ms deadline
            assertThat(w.reason()).isNull();
            assertThat(c.aborts.get()).isZero();
        }
    }

    /** A peer dying while NCCL connects lazily inside a launch: nothing is armed, the error must still abort. */
    @Test
    void anAsyncErrorBetweenWaitsStillAborts() throws Exception {
        final FakeComm c = new FakeComm();
        try (Watchdog w = new Watchdog(c, 5, "t")) {
            w.arm("all_gather of 64 bytes on rank 0 (GPU 0)", TimeUnit.SECONDS.toNanos(60));
            w.disarm();
            c.error = 6;
            waitFor(w);
            assertThat(w.reason()).contains("remote process exited", "after all_gather of 64 bytes");
            assertThat(c.aborts.get()).isEqualTo(1);
        }
    }

    /** close() must not return while an abort is in flight: ncclCommDestroy would overlap it. */
    @Test
    void closeWaitsForAnAbortInFlight() throws Exception {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicBoolean abortDone = new AtomicBoolean();
        final FakeComm c = new FakeComm() {
            @Override
            public void abort() {
                entered.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                abortDone.set(true);
            }
        };
        final Watchdog w = new Watchdog(c, 5, "t");
        c.error = 6;
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        final AtomicBoolean doneWhenClosed = new AtomicBoolean();
        final Thread closer = new Thread(() -> {
            w.close();
            doneWhenClosed.set(abortDone.get());
        });
        closer.start();
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (closer.getState() != Thread.State.TIMED_WAITING && closer.getState() != Thread.State.TERMINATED
                && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        release.countDown();
        closer.join(10_000);
        assertThat(doneWhenClosed.get()).as("close() returned before the abort had").isTrue();
        assertThat(w.running()).isFalse();
    }
}
