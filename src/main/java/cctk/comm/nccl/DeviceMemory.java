package cctk.comm.nccl;

import cctk.CctkException;
import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.HashMap;
import java.util.Map;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.SizeTPointer;

/**
 * cudaMalloc'd buffers of one communicator. The harness drops buffers without freeing them (host backends leave
 * that to the garbage collector), so each root buffer is tracked by a phantom reference and cudaFree'd on this
 * thread (the one whose device is current) once unreachable; when memory runs short the collector is asked to
 * find them first. A size that cannot fit on the GPU at all is refused with a note, so the harness skips it as
 * nccl-tests does.
 * <b>Note:</b> not threadsafe: the communicator's thread only.
 */
final class DeviceMemory implements AutoCloseable {

    private final ReferenceQueue<NcclBuffer> queue = new ReferenceQueue<>();
    private final Map<Reference<NcclBuffer>, Allocation> live = new HashMap<>();
    private final int device;
    private long liveBytes;

    private record Allocation(Pointer pointer, long bytes) {
    }

    DeviceMemory(final int device) {
        this.device = device;
    }

    /** A zeroed buffer of {@code bytes} (≥ 1) bytes owned by {@code owner}. */
    NcclBuffer allocate(final NcclCommunicator owner, final long bytes) {
        release();
        final long[] info = info();
        if (bytes > info[1]) {
            throw CctkException.environment(bytes + " bytes do not fit on GPU " + device + " (" + info[1]
                    + " bytes in all); size skipped.");
        }
        Pointer p = tryMalloc(bytes);
        for (int attempt = 0; p == null && attempt < 3; attempt++) {
            System.gc();
            awaitRelease(200);
            p = tryMalloc(bytes);
        }
        if (p == null) {
            throw CctkException.environment(bytes + " bytes do not fit in GPU " + device + "'s free memory ("
                    + info()[0] + " of " + info[1] + " bytes free); size skipped.");
        }
        // on the communicator's non-blocking stream (a cudaMemset on stream 0 does not order with it), waited for
        Cuda.check(cudart.cudaMemsetAsync(p, 0, bytes, owner.stream()), "cudaMemsetAsync of " + bytes + " bytes");
        owner.synchronize();
        final NcclBuffer root = new NcclBuffer(owner, p, 0, bytes);
        live.put(new PhantomReference<>(root, queue), new Allocation(p, bytes));
        liveBytes += bytes;
        return root;
    }

    /** Bytes held by buffers not yet freed. */
    long liveBytes() {
        return liveBytes;
    }

    private Pointer tryMalloc(final long bytes) {
        final Pointer p = new Pointer();
        final int err = cudart.cudaMalloc(p, bytes);
        if (err == cudart.cudaErrorMemoryAllocation) {
            cudart.cudaGetLastError();
            return null;
        }
        Cuda.check(err, "cudaMalloc of " + bytes + " bytes on GPU " + device);
        return p;
    }

    /** {free, total} bytes of the device. */
    private static long[] info() {
        try (SizeTPointer free = new SizeTPointer(1); SizeTPointer total = new SizeTPointer(1)) {
            Cuda.check(cudart.cudaMemGetInfo(free, total), "cudaMemGetInfo");
            return new long[] {free.get(), total.get()};
        }
    }

    private void release() {
        for (Reference<? extends NcclBuffer> r = queue.poll(); r != null; r = queue.poll()) {
            free(r);
        }
    }

    private void awaitRelease(final long millis) {
        try {
            final Reference<? extends NcclBuffer> r = queue.remove(millis);
            if (r != null) {
                free(r);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        release();
    }

    private void free(final Reference<? extends NcclBuffer> r) {
        final Allocation a = live.remove(r);
        if (a != null) {
            liveBytes -= a.bytes();
            cudart.cudaFree(a.pointer());
        }
    }

    @Override
    public void close() {
        for (final Allocation a : live.values()) {
            cudart.cudaFree(a.pointer());
        }
        live.clear();
        liveBytes = 0;
    }
}
