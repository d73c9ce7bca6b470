package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import cctk.results.CrossCoreReadings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The machine's cross-core probe: a reading is taken, bounded in time, and leaves no thread behind. */
@Timeout(30)
class CrossCoreTest {

    @Test
    void aReadingIsARoundTripOfTwoCopiesAndLeavesNoThreadBehind() throws InterruptedException {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs two CPUs");
        final long t0 = System.nanoTime();
        final CrossCore.Reading r;
        try (CompilerThreads compilers = CompilerThreads.open()) {
            r = CrossCore.measure(compilers);
        }
        final double ms = (System.nanoTime() - t0) / 1e6;
        assertThat(r.why()).isNull();
        assertThat(r.trips()).isPositive();
        assertThat(r.fastestUs()).isPositive().isLessThanOrEqualTo(r.roundTripUs());
        // two copies of 1 MiB cannot take less than 1 µs, nor (on any machine that runs this) a second
        assertThat(r.roundTripUs()).isBetween(1.0, 1e6);
        assertThat(ms).as("the budget is 40 ms of round trips, plus the helper's start and end").isLessThan(2000);
        assertThat(CrossCoreReadings.us(r.asJson())).isEqualTo(r.roundTripUs());
        Thread.sleep(50);
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("cctk-crosscore")
            && t.isAlive());
    }
}
