package cctk.comm.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The watchdog against a fake communicator: aborts on an async error or a passed deadline, never when idle. */
@Timeout(30)
class WatchdogTest {

    static final class FakeComm implements Watchdog.Health {
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
            Thread.sleep(50);
            assertThat(w.reason()).isNull();
            c.error = 6;
            waitFor(w);
            assertThat(w.reason()).contains("remote process exited", "ncclResult 6",
                    "all_reduce of 1048576 bytes on rank 3 (GPU 2)");
            Thread.sleep(50);
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

    @Test
    void disarmedItNeitherPollsNorAborts() throws Exception {
        final FakeComm c = new FakeComm();
        try (Watchdog w = new Watchdog(c, 5, "t")) {
            w.arm("reduce", TimeUnit.MILLISECONDS.toNanos(50));
            w.disarm();
            Thread.sleep(30);
            final int polls = c.polls.get();
            c.error = 6;
            Thread.sleep(200);
            assertThat(c.polls.get()).isLessThanOrEqualTo(polls + 1);
            assertThat(w.reason()).isNull();
            assertThat(c.aborts.get()).isZero();
        }
    }
}
