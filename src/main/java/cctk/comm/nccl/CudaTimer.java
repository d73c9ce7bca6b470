package cctk.comm.nccl;

import cctk.bench.IterationTimer;
import cctk.spec.NcclOptions;
import java.util.Arrays;
import org.bytedeco.cuda.cudart.CUevent_st;
import org.bytedeco.cuda.cudart.CUgraphExec_st;
import org.bytedeco.cuda.cudart.CUgraph_st;
import org.bytedeco.cuda.global.cudart;

/**
 * Times iterations with CUDA events on the communicator's stream, so host launch overhead and the wait are not
 * counted. Pipelined (default, as nccl-tests): N launches between two events, one wait, each iteration the
 * average. Blocking: events around each launch, waited for before the next. Graph: the N launches captured into
 * a CUDA graph once (untimed), then launched once warm and once between the events.
 * <b>Note:</b> not threadsafe.
 */
final class CudaTimer implements IterationTimer, AutoCloseable {

    private final NcclCommunicator comm;
    private final NcclOptions.Timing mode;
    private final CUevent_st start = new CUevent_st();
    private final CUevent_st end = new CUevent_st();
    private final float[] ms = new float[1];
    private boolean created;

    CudaTimer(final NcclCommunicator comm, final NcclOptions.Timing mode) {
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
            case PIPELINED -> average(n, between(() -> {
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
            times[i] = between(iteration);
        }
        return times;
    }

    private double[] graph(final int n, final Runnable iteration) {
        final CUgraph_st graph = new CUgraph_st();
        final CUgraphExec_st exec = new CUgraphExec_st();
        Cuda.check(cudart.cudaStreamBeginCapture(comm.stream(), cudart.cudaStreamCaptureModeThreadLocal),
                "cudaStreamBeginCapture");
        try {
            for (int i = 0; i < n; i++) {
                iteration.run();
            }
        } finally {
            Cuda.check(cudart.cudaStreamEndCapture(comm.stream(), graph), "cudaStreamEndCapture");
        }
        try {
            Cuda.check(cudart.cudaGraphInstantiate(exec, graph, 0L), "cudaGraphInstantiate");
            final Runnable launch = () -> Cuda.check(cudart.cudaGraphLaunch(exec, comm.stream()), "cudaGraphLaunch");
            launch.run();
            comm.synchronize();
            return average(n, between(launch));
        } finally {
            if (!exec.isNull()) {
                cudart.cudaGraphExecDestroy(exec);
            }
            cudart.cudaGraphDestroy(graph);
        }
    }

    /** µs between an event before and one after {@code work} on the stream, once the second has completed. */
    private double between(final Runnable work) {
        Cuda.check(cudart.cudaEventRecord(start, comm.stream()), "cudaEventRecord");
        work.run();
        Cuda.check(cudart.cudaEventRecord(end, comm.stream()), "cudaEventRecord");
        comm.await(() -> cudart.cudaEventQuery(end), "the timing event");
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
