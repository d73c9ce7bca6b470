package cctk.comm.nccl;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.comm.CollectiveType;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.IterationTimer;
import cctk.comm.ReduceOp;
import java.lang.reflect.Method;
import java.util.function.IntSupplier;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.nccl.ncclComm;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/**
 * One rank's NCCL communicator on one GPU: device buffers, the collectives on its own non-blocking stream, and
 * calls and waits that a {@link Watchdog} bounds on this thread (no other thread ever calls NCCL on it). Every
 * failure names the operation, its size and the rank. Made by {@link NcclSetup}; times its iterations with CUDA
 * events ({@link CudaTimer}).
 * <b>Note:</b> not threadsafe: one thread drives it, the one that created it (its device is current there).
 */
public final class NcclCommunicator implements Communicator, IterationTimer.Source {

    private static final int STAGING_BYTES = 1 << 20;

    private final int rank;
    private final int size;
    private final String backend;
    private final int device;
    private final ncclComm comm;
    private final CUstream_st stream;
    private final Watchdog watchdog;
    private final DeviceMemory memory;
    private final CudaTimer timer;
    private final Method allToAllCall;
    private final boolean hasLastError;
    private final int ncclVersion;
    private PinnedStaging staging;
    private NcclBuffer barrierBuffer;
    private String op = "setup";
    private long opBytes;
    private boolean closed;
    /** A call or wait failed: close() aborts instead of destroying (destroy can block on dead peers). */
    private boolean failed;
    /** The stream is being captured into a CUDA graph: a host wait now would invalidate the capture. */
    private boolean capturing;

    NcclCommunicator(final NcclSetup.Opened o, final NcclConfig config) {
        this.rank = o.rank();
        this.size = o.size();
        this.backend = o.backend();
        this.device = o.device();
        this.comm = o.comm();
        this.stream = o.stream();
        this.watchdog = o.watchdog();
        this.memory = new DeviceMemory(device);
        this.allToAllCall = NcclSetup.allToAllMethod(config.alltoallGrouped());
        this.hasLastError = NcclLibraries.has("ncclGetLastError");
        final int[] v = new int[1];
        nccl.ncclGetVersion(v);
        this.ncclVersion = v[0];
        this.timer = new CudaTimer(this, config.timing());
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public String backend() {
        return backend;
    }

    /** The GPU this rank drives. */
    public int device() {
        return device;
    }

    /** Whether all-to-all goes through ncclAlltoAll (NCCL ≥ 2.29) rather than grouped send/recv. */
    public boolean nativeAllToAll() {
        return allToAllCall != null;
    }

    Watchdog watchdogForTests() {
        return watchdog;
    }

    CUstream_st stream() {
        return stream;
    }

    PinnedStaging staging() {
        if (staging == null) {
            staging = new PinnedStaging(STAGING_BYTES);
        }
        return staging;
    }

    @Override
    public String unsupported(final CollectiveType collective, final DType type, final ReduceOp o,
                              final boolean inPlace) {
        return NcclTypes.unsupported(collective, type, o, inPlace, ncclVersion);
    }

    @Override
    public CommBuffer allocate(final long bytes) {
        return memory.allocate(this, Math.max(1, bytes));
    }

    /** Device bytes held by buffers not yet freed (tests). */
    long liveBytes() {
        return memory.liveBytes();
    }

    /** Gives a buffer {@link #allocate} returned back to the device at once. */
    @Override
    public void free(final CommBuffer buffer) {
        if (!(buffer instanceof NcclBuffer b) || b.root() != b || !memory.free(b)) {
            throw CctkException.usage("only a whole device buffer of this communicator can be freed, once.");
        }
    }

    private static Pointer p(final CommBuffer b) {
        return ((NcclBuffer) b).pointer();
    }

    private void begin(final CollectiveType collective, final long count, final DType type) {
        op = collective.specName();
        opBytes = count * type.bytes();
    }

    @Override
    public void allReduce(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                          final ReduceOp o) {
        begin(CollectiveType.ALL_REDUCE, count, type);
        launch(() -> nccl.ncclAllReduce(p(send), p(recv), count, NcclTypes.dataType(type), NcclTypes.redOp(o), comm,
                stream));
    }

    @Override
    public void allGather(final CommBuffer send, final CommBuffer recv, final long sendCount, final DType type) {
        begin(CollectiveType.ALL_GATHER, sendCount, type);
        launch(() -> nccl.ncclAllGather(p(send), p(recv), sendCount, NcclTypes.dataType(type), comm, stream));
    }

    @Override
    public void reduceScatter(final CommBuffer send, final CommBuffer recv, final long recvCount, final DType type,
                              final ReduceOp o) {
        begin(CollectiveType.REDUCE_SCATTER, recvCount, type);
        launch(() -> nccl.ncclReduceScatter(p(send), p(recv), recvCount, NcclTypes.dataType(type),
                NcclTypes.redOp(o), comm, stream));
    }

    @Override
    public void broadcast(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                          final int root) {
        begin(CollectiveType.BROADCAST, count, type);
        launch(() -> nccl.ncclBroadcast(p(send), p(recv), count, NcclTypes.dataType(type), root, comm, stream));
    }

    @Override
    public void reduce(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                       final ReduceOp o, final int root) {
        begin(CollectiveType.REDUCE, count, type);
        launch(() -> nccl.ncclReduce(p(send), p(recv), count, NcclTypes.dataType(type), NcclTypes.redOp(o), root,
                comm, stream));
    }

    @Override
    public void allToAll(final CommBuffer send, final CommBuffer recv, final long countPerPeer, final DType type) {
        begin(CollectiveType.ALLTOALL, countPerPeer * size, type);
        final int t = NcclTypes.dataType(type);
        if (allToAllCall != null) {
            launch(() -> invokeAllToAll(p(send), p(recv), countPerPeer, t));
            return;
        }
        final long block = countPerPeer * type.bytes();
        grouped(() -> {
            for (int peer = 0; peer < size; peer++) {
                check(nccl.ncclSend(((NcclBuffer) send).at(peer * block), countPerPeer, t, peer, comm, stream));
                check(nccl.ncclRecv(((NcclBuffer) recv).at(peer * block), countPerPeer, t, peer, comm, stream));
            }
        });
    }

    private int invokeAllToAll(final Pointer send, final Pointer recv, final long count, final int type) {
        try {
            return (Integer) allToAllCall.invoke(null, send, recv, count, type, comm, stream);
        } catch (ReflectiveOperationException e) {
            throw new CctkException(ExitCode.INTERNAL, "calling ncclAlltoAll failed: " + e, e);
        }
    }

    @Override
    public void allToAllv(final CommBuffer send, final long[] sendCounts, final long[] sendDispls,
                          final CommBuffer recv, final long[] recvCounts, final long[] recvDispls, final DType type) {
        cctk.comm.AllToAllvArgs.check(rank, size, sendCounts, sendDispls, recvCounts, recvDispls);
        long total = 0;
        for (final long c : sendCounts) {
            total += c;
        }
        begin(CollectiveType.ALLTOALLV, total, type);
        final int t = NcclTypes.dataType(type);
        final int eb = type.bytes();
        grouped(() -> {
            for (int peer = 0; peer < size; peer++) {
                if (sendCounts[peer] > 0) {
                    check(nccl.ncclSend(((NcclBuffer) send).at(sendDispls[peer] * eb), sendCounts[peer], t, peer,
                            comm, stream));
                }
                if (recvCounts[peer] > 0) {
                    check(nccl.ncclRecv(((NcclBuffer) recv).at(recvDispls[peer] * eb), recvCounts[peer], t, peer,
                            comm, stream));
                }
            }
        });
    }

    @Override
    public void sendRecv(final CommBuffer send, final int sendPeer, final CommBuffer recv, final int recvPeer,
                         final long count, final DType type) {
        begin(CollectiveType.SENDRECV, count, type);
        final int t = NcclTypes.dataType(type);
        grouped(() -> {
            check(nccl.ncclSend(p(send), count, t, sendPeer, comm, stream));
            check(nccl.ncclRecv(p(recv), count, t, recvPeer, comm, stream));
        });
    }

    /**
     * One NCCL launch, polled on this thread while it returns ncclInProgress (the first launch on a communicator
     * makes NCCL connect to its peers), within the deadline.
     */
    private void launch(final IntSupplier call) {
        live();
        check(watchdog.call(describe(), call));
    }

    /**
     * The calls between ncclGroupStart and ncclGroupEnd; the group is closed even when one of them throws. The
     * group's work starts at ncclGroupEnd, which a non-blocking communicator may answer with ncclInProgress.
     */
    private void grouped(final Runnable calls) {
        live();
        check(nccl.ncclGroupStart());
        RuntimeException pending = null;
        try {
            calls.run();
        } catch (RuntimeException e) {
            pending = e;
        }
        if (pending != null) {
            nccl.ncclGroupEnd();
            throw pending;
        }
        check(watchdog.call(describe(), nccl::ncclGroupEnd));
    }

    @Override
    public void barrier() {
        if (barrierBuffer == null) {
            barrierBuffer = (NcclBuffer) allocate(4);
        }
        allReduce(barrierBuffer, barrierBuffer, 1, DType.INT32, ReduceOp.SUM);
        op = CollectiveType.BARRIER.specName();
        synchronize();
    }

    @Override
    public void synchronize() {
        if (capturing) {
            // cudaStreamQuery on a capturing stream is cudaErrorStreamCaptureUnsupported and kills the capture
            throw new CudaTimer.HostWaitInCapture(op);
        }
        await(() -> cudart.cudaStreamQuery(stream), "the stream", 1);
    }

    void capturing(final boolean on) {
        capturing = on;
    }

    /**
     * Polls {@code query} (a cudaStreamQuery or cudaEventQuery) on this thread until done, watching NCCL's
     * asynchronous error, within one benchmark.timeout per iteration the wait covers.
     */
    void await(final IntSupplier query, final String what, final int iterations) {
        live();
        try {
            final int r = watchdog.await(describe(), query, iterations, cudart.cudaErrorNotReady);
            if (r != cudart.cudaSuccess) {
                failed = true;
                Cuda.check(r, "waiting for " + what + " after " + describe());
            }
        } catch (CctkException e) {
            failed = true;
            throw e;
        }
    }

    /** "all_reduce of 4194304 bytes on rank 3 (GPU 2)". */
    String describe() {
        return op + " of " + opBytes + " bytes on rank " + rank + " (GPU " + device + ")";
    }

    /** An aborted communicator is freed: any further NCCL call on it would touch freed memory. */
    private void live() {
        if (watchdog.aborted()) {
            failed = true;
            throw CctkException.environment("The nccl backend cannot run " + describe() + ": rank " + rank + "'s"
                    + " communicator was aborted after an earlier failure (see the message before this one).");
        }
    }

    /** Throws for a failed NCCL call, with NCCL's own text and its last error message. */
    void check(final int result) {
        if (result == nccl.ncclSuccess || result == nccl.ncclInProgress) {
            return;
        }
        failed = true;
        final String text = nccl.ncclGetErrorString(result).getString();
        String last = "";
        if (hasLastError) {
            final BytePointer m = nccl.ncclGetLastError(comm);
            last = m == null || m.isNull() ? "" : m.getString();
        }
        throw CctkException.environment("NCCL " + describe() + " failed: " + text + " (ncclResult " + result + ")"
                + (last.isBlank() ? "" : ": " + last.trim()) + ".");
    }

    /**
     * ncclCommFinalize (NCCL ≥ 2.14) flushes the communicator's work and, non-blocking, is polled to its end within
     * the deadline; ncclCommDestroy then only frees. True when the communicator may be destroyed.
     */
    private boolean finalized() {
        if (!NcclLibraries.has("ncclCommFinalize")) {
            return true;
        }
        try {
            return watchdog.call("ncclCommFinalize on rank " + rank, () -> nccl.ncclCommFinalize(comm))
                    == nccl.ncclSuccess;
        } catch (CctkException e) {
            return false;
        }
    }

    @Override
    public IterationTimer iterationTimer() {
        return timer;
    }

    /**
     * Waits (bounded) for the stream, finalizes (bounded) and destroys the communicator, or aborts it
     * when anything failed (ncclCommDestroy can block on dead peers), and frees buffers, staging and stream.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        capturing = false;
        boolean healthy = !failed && !watchdog.aborted();
        if (healthy) {
            op = "close";
            opBytes = 0;
            try {
                synchronize();
            } catch (RuntimeException e) {
                healthy = false;
            }
        }
        timer.close();
        if (!watchdog.aborted()) {
            if (healthy && finalized()) {
                nccl.ncclCommDestroy(comm);
            } else {
                watchdog.abort();
            }
        }
        // else this thread has aborted (and so freed) the communicator already
        memory.close();
        if (staging != null) {
            staging.close();
        }
        cudart.cudaStreamDestroy(stream);
    }
}
