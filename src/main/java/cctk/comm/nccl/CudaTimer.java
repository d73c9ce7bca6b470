package cctk.comm.nccl;

import cctk.comm.IterationTimer;
import java.util.Arrays;
import org.bytedeco.cuda.cudart.CUevent_st;
import org.bytedeco.cuda.cudart.CUgraphExec_st;
import org.bytedeco.cuda.cudart.CUgraph_st;
import org.bytedeco.cuda.global.cudart;

/**
 * Times iterations with CUDA events on the communicator's stream, so host launch overhead and the wait are not
 * counted. Pipelined (default, as nccl-tests): N launches between two events, one wait, each iteration the
 * average. Blocking: events around each launch, waited for before the next. Graph: the N launches captured into
 * a CUDA graph once (untimed), then launched once warm and once between the events; an iteration that waits on
 * the host (barrier) cannot be captured and is timed pipelined instead.
 * <b>Note:</b> not threadsafe.
 */
final class CudaTimer implements IterationTimer, AutoCloseable {

    private final NcclCommunicator comm;
    private final NcclConfig.Timing mode;
    private final CUevent_st start = new CUevent_st();
    private final CUevent_st end = new CUevent_st();
    private final float[] ms = new float[1];
    private boolean created;

    CudaTimer(final NcclCommunicator comm, final NcclConfig.Timing mode) {
        this.comm = comm;
        this.mode = mode;
    }

    @Override
    public double[] time(final int n, final Runnable iteration) {
        if (!created) {
            Cuda.check(cudart.cudaEventCreate(start), "cudaEventCreate");
            Cuda.check(cudart.cudaEventCreate(end), "cudaEventCreate");
            created = true;
        }
        return switch (mode) {
            case PIPELINED -> average(n, between(n, () -> {
                for (int i = 0; i < n; i++) {
                    iteration.run();
                }
            }));
            case BLOCKING -> blocking(n, iteration);
            case GRAPH -> graph(n, iteration);
        };
    }

    private static double[] average(final int n, final double totalUs) {
        final double[] times = new double[n];
        Arrays.fill(times, totalUs / n);
        return times;
    }

    private double[] blocking(final int n, final Runnable iteration) {
        final double[] times = new double[n];
        for (int i = 0; i < n; i++) {
            times[i] = between(1, iteration);
        }
        return times;
    }

    private double[] graph(final int n, final Runnable iteration) {
        final CUgraph_st graph = new CUgraph_st();
        final Capture capture = new Capture() {
            @Override
            public int begin() {
                return cudart.cudaStreamBeginCapture(comm.stream(), cudart.cudaStreamCaptureModeThreadLocal);
            }

            @Override
            public int end() {
                return cudart.cudaStreamEndCapture(comm.stream(), graph);
            }

            @Override
            public void capturing(final boolean on) {
                comm.capturing(on);
            }
        };
        if (!capture(capture, n, iteration)) {
            // a host wait (barrier) cannot be captured: the graph is dropped and the iterations timed as launched
            if (!graph.isNull()) {
                cudart.cudaGraphDestroy(graph);
            }
            cudart.cudaGetLastError();
            return average(n, between(n, () -> {
                for (int i = 0; i < n; i++) {
                    iteration.run();
                }
            }));
        }
        final CUgraphExec_st exec = new CUgraphExec_st();
        try {
            Cuda.check(cudart.cudaGraphInstantiate(exec, graph, 0L), "cudaGraphInstantiate");
            final Runnable launch = () -> Cuda.check(cudart.cudaGraphLaunch(exec, comm.stream()), "cudaGraphLaunch");
            launch.run();
            comm.await(() -> cudart.cudaStreamQuery(comm.stream()), "the warm graph launch", n);
            return average(n, between(n, launch));
        } finally {
            if (!exec.isNull()) {
                cudart.cudaGraphExecDestroy(exec);
            }
            cudart.cudaGraphDestroy(graph);
        }
    }

    /** Stream capture as {@link #capture} drives it (CUDA here; a recording fake in the tests). */
    interface Capture {
        /** cudaStreamBeginCapture's result. */
        int begin();

        /** cudaStreamEndCapture's result. */
        int end();

        /** Tells the communicator that its stream is (no longer) being captured. */
        void capturing(boolean on);
    }

    /** An iteration asked for a host wait on a capturing stream (a barrier): it is timed outside capture. */
    static final class HostWaitInCapture extends RuntimeException {
        private static final long serialVersionUID = 1L;

        HostWaitInCapture(final String op) {
            super(op + " waits on the host, which a CUDA graph cannot capture", null, false, false);
        }
    }

    /**
     * Captures {@code n} iterations. True when captured; false when an iteration needed a host wait (the capture
     * was ended and is to be dropped). An iteration's own error is thrown with a failed end of capture attached as
     * suppressed, never replaced by it.
     */
    static boolean capture(final Capture c, final int n, final Runnable iteration) {
        Cuda.check(c.begin(), "cudaStreamBeginCapture");
        RuntimeException pending = null;
        c.capturing(true);
        try {
            for (int i = 0; i < n; i++) {
                iteration.run();
            }
        } catch (RuntimeException e) {
            pending = e;
        } finally {
            c.capturing(false);
        }
        final int ended = c.end();
        if (pending instanceof HostWaitInCapture) {
            return false;
        }
        if (pending != null) {
            if (ended != 0) {
                pending.addSuppressed(new IllegalStateException("cudaStreamEndCapture also failed (cudaError "
                        + ended + ")"));
            }
            throw pending;
        }
        Cuda.check(ended, "cudaStreamEndCapture");
        return true;
    }

    /**
     * µs between an event before and one after {@code work} ({@code n} iterations) on the stream, once the second
     * has completed; the wait's deadline is one benchmark.timeout per iteration.
     */
    private double between(final int n, final Runnable work) {
        Cuda.check(cudart.cudaEventRecord(start, comm.stream()), "cudaEventRecord");
        work.run();
        Cuda.check(cudart.cudaEventRecord(end, comm.stream()), "cudaEventRecord");
        comm.await(() -> cudart.cudaEventQuery(end), "the timing event", n);
        Cuda.check(cudart.cudaEventElapsedTime(ms, start, end), "cudaEventElapsedTime");
        return ms[0] * 1e3;
    }

    @Override
    public void close() {
        if (created) {
            cudart.cudaEventDestroy(start);
            cudart.cudaEventDestroy(end);
        }
    }
}
