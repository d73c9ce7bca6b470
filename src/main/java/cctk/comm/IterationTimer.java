package cctk.comm;


/**
 * How the timed iterations of one measurement are timed. The default times each iteration alone on the host
 * (call plus synchronize); a backend with its own clock (CUDA events on a stream) offers another through
 * {@link Source}, and {@link MeasureStep} uses it when the communicator is one.
 * <b>Note:</b> not threadsafe.
 */
public interface IterationTimer {

    /** Runs {@code iteration} {@code n} times (n ≥ 1) and returns the time of each, in µs. */
    double[] time(int n, Runnable iteration);

    /** A communicator that brings its own timer. */
    interface Source {
        IterationTimer iterationTimer();
    }

    /** Each iteration timed alone with the host clock: call, then {@link Communicator#synchronize()}. */
    static IterationTimer host(final Communicator comm) {
        return (n, iteration) -> {
            final double[] times = new double[n];
            for (int i = 0; i < n; i++) {
                final long t0 = System.nanoTime();
                iteration.run();
                comm.synchronize();
                times[i] = (System.nanoTime() - t0) / 1e3;
            }
            return times;
        };
    }

    /** The communicator's own timer, or the host timer when it has none. */
    static IterationTimer of(final Communicator comm) {
        return comm instanceof Source s ? s.iterationTimer() : host(comm);
    }
}
