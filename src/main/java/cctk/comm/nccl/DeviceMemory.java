package cctk.comm.nccl;

import cctk.CctkException;
import java.util.IdentityHashMap;
import java.util.Map;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.SizeTPointer;

/**
 * cudaMalloc'd buffers of one communicator, each freed when its owner says so ({@link #free}) or when the
 * communicator closes: never by the garbage collector, which does not see device memory. A size that does not fit
 * beside the headroom kept free ({@link #headroom}), or not in the GPU's free memory now, is refused with a note,
 * so the harness skips it as nccl-tests does.
 * <b>Note:</b> not threadsafe: the communicator's thread only (its device is current there).
 */
final class DeviceMemory implements AutoCloseable {

    private static final long GIB = 1L << 30;
    private static final long SIXTEEN_GIB = 16 * GIB;

    private final Map<NcclBuffer, Allocation> live = new IdentityHashMap<>();
    private final int device;
    private long liveBytes;

    private record Allocation(Pointer pointer, long bytes) {
    }

    DeviceMemory(final int device) {
        this.device = device;
    }

    /** A zeroed buffer of {@code bytes} (≥ 1) bytes owned by {@code owner}. */
    NcclBuffer allocate(final NcclCommunicator owner, final long bytes) {
        final long[] info = info();
        final String refused = refusal(bytes, liveBytes, info[1], device);
        if (refused != null) {
            throw CctkException.environment(refused);
        }
        final Pointer p = tryMalloc(bytes);
        if (p == null) {
            throw CctkException.environment(bytes + " bytes do not fit in GPU " + device + "'s free memory ("
                    + info()[0] + " of " + info[1] + " bytes free, " + liveBytes + " held by cctk); size skipped.");
        }
        // on the communicator's non-blocking stream (a cudaMemset on stream 0 does not order with it), waited for
        Cuda.check(cudart.cudaMemsetAsync(p, 0, bytes, owner.stream()), "cudaMemsetAsync of " + bytes + " bytes");
        owner.synchronize();
        final NcclBuffer root = new NcclBuffer(owner, p, 0, bytes);
        live.put(root, new Allocation(p, bytes));
        liveBytes += bytes;
        return root;
    }

    /**
     * The device memory kept free for NCCL, the CUDA context and other processes, as nccl-tests keeps it: 1 GiB per
     * 16 GiB installed (rounded up), at most 4 GiB, plus 1 GiB.
     */
    static long headroom(final long total) {
        return Math.min((total + SIXTEEN_GIB - 1) / SIXTEEN_GIB, 4) * GIB + GIB;
    }

    /** Why {@code bytes} more may not be held beside {@code live} on a GPU of {@code total} bytes, or null. */
    static String refusal(final long bytes, final long live, final long total, final int device) {
        final long usable = Math.max(0, total - headroom(total));
        if (bytes <= usable - live) {
            return null;
        }
        return bytes + " bytes do not fit on GPU " + device + " beside the " + headroom(total) + " bytes kept free"
                + " (" + total + " bytes in all, " + usable + " usable: 1 GiB per 16 GiB, at most 4 GiB, plus 1 GiB,"
                + " as nccl-tests keeps; " + live + " held by cctk); size skipped.";
    }

    /** Frees {@code root}, a buffer {@link #allocate} returned, at once; false when it is not one (or freed). */
    boolean free(final NcclBuffer root) {
        final Allocation a = live.remove(root);
        if (a == null) {
            return false;
        }
        root.freed();
        liveBytes -= a.bytes();
        cudart.cudaFree(a.pointer());
        return true;
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

    @Override
    public void close() {
        for (final Map.Entry<NcclBuffer, Allocation> e : live.entrySet()) {
            e.getKey().freed();
            cudart.cudaFree(e.getValue().pointer());
        }
        live.clear();
        liveBytes = 0;
    }
}
