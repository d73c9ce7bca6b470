package cctk.bench;

/**
 * Called by the sweep before it measures each point, on every rank. The product's hook does nothing; the one
 * other hook is the test-only {@link TestFaults}, which makes a rank die mid-sweep for the fault tests.
 * <b>Note:</b> called on the thread that drives the sweep.
 */
@FunctionalInterface
public interface PointHook {

    /** The hook that does nothing. */
    PointHook NONE = (rank, sizesDone) -> { };

    /**
     * Before a point.
     *
     * @param rank      this rank
     * @param sizesDone how many of the spec's sizes the sweep has measured before this point (-1: a point without
     *                  a size, such as the barrier)
     */
    void beforePoint(int rank, int sizesDone);
}
