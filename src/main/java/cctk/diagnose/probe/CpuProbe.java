package cctk.diagnose.probe;

/**
 * The compute half of telling a slow rank from a slow NIC: how many rounds of a fixed arithmetic kernel (a multiply
 * and an add over 4,096 doubles, in cache, no memory traffic to speak of, no I/O) this rank completes per second of
 * wall time. It runs for {@link #WINDOW_NANOS}, longer than two periods of the Linux CFS bandwidth controller (100 ms
 * by default; see the kernel's sched-bwc documentation), so that a CPU quota shows in full, after a short untimed
 * run that lets the JIT compile the kernel. A rank that gets a whole core reads its core's speed; a rank capped at
 * 10 % of a CPU, or sharing its core with another job, reads a fraction of it.
 * <b>Note:</b> not threadsafe: one per rank.
 */
final class CpuProbe {

    /** How long the timed rounds last. */
    static final long WINDOW_NANOS = 250_000_000L;
    /** How long the untimed rounds before them last. */
    static final long WARM_NANOS = 100_000_000L;
    private static final int LENGTH = 4096;

    private final double[] values = new double[LENGTH];
    private double sink;

    CpuProbe() {
        java.util.Arrays.fill(values, 1.0);
    }

    /** Kernel rounds per second of wall time over a window of {@code windowNanos}. */
    double rate(final long windowNanos) {
        rounds(Math.min(WARM_NANOS, windowNanos));
        final long start = System.nanoTime();
        final long done = rounds(windowNanos);
        final long took = System.nanoTime() - start;
        return took > 0 ? done * 1e9 / took : Double.NaN;
    }

    /** Rounds of the kernel until {@code nanos} of wall time have passed: how many. */
    private long rounds(final long nanos) {
        final long start = System.nanoTime();
        long n = 0;
        do {
            for (int i = 0; i < LENGTH; i++) {
                values[i] = values[i] * 0.999_999 + 1e-6;
            }
            n++;
        } while (System.nanoTime() - start < nanos);
        sink += values[(int) (n % LENGTH)]; // a field write the JIT keeps: the kernel's work is not dead code
        return n;
    }
}
