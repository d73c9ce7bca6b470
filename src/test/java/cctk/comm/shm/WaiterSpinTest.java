package cctk.comm.shm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How a waiting rank's spin adapts, wait by wait (Waiter.nextSpin): no real waits, the rule alone. */
class WaiterSpinTest {

    private static final long MAX = 2_000_000L;

    @Test
    void longWaitsTheSpinDidNotEndHalveItDownToTheLeastSpin() {
        long spin = MAX;
        int waits = 0;
        // a peer that lost its core: every wait lasts a scheduler time slice (4 ms)
        while (spin > Waiter.SPIN_MIN_NANOS) {
            spin = Waiter.nextSpin(MAX, spin, 4_000_000L);
            waits++;
        }
        assertThat(waits).isLessThanOrEqualTo(6);
        assertThat(Waiter.nextSpin(MAX, spin, 4_000_000L)).isEqualTo(Waiter.SPIN_MIN_NANOS);
    }

    @Test
    void shortWaitsBringTheSpinBackAndCaughtWaitsGrowItToTheMaximum() {
        // after contention, a 20 us wait would have been caught by a 40 us spin
        assertThat(Waiter.nextSpin(MAX, 0, 20_000L)).isEqualTo(40_000L);
        long spin = 40_000L;
        for (int i = 0; i < 20; i++) {
            spin = Waiter.nextSpin(MAX, spin, 15_000L);
        }
        assertThat(spin).isEqualTo(MAX);
        // a wait the least spin caught doubles it
        assertThat(Waiter.nextSpin(MAX, Waiter.SPIN_MIN_NANOS, 1_000L)).isEqualTo(2 * Waiter.SPIN_MIN_NANOS);
    }

    @Test
    void ranksThatShareCoresNeverSpin() {
        assertThat(Waiter.nextSpin(0, 0, 1_000L)).isZero();
        assertThat(Waiter.nextSpin(0, 0, 10_000_000L)).isZero();
    }
}
