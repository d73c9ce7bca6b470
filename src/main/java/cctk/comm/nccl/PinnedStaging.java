package cctk.comm.nccl;

import java.nio.ByteBuffer;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/**
 * Pinned host memory (cudaMallocHost) through which buffers are uploaded and downloaded: heap ByteBuffers (what
 * the harness fills) have no stable address, and a copy from pageable memory may return before the DMA has read
 * it, so uploads go from here with cudaMemcpyAsync on the communicator's stream, followed by a wait on the stream.
 * Not on the timed path.
 * <b>Note:</b> not threadsafe.
 */
final class PinnedStaging implements AutoCloseable {

    private final Pointer pinned;
    private final BytePointer pointer;
    private final ByteBuffer buffer;

    PinnedStaging(final int capacity) {
        this.pinned = new Pointer();
        Cuda.check(cudart.cudaMallocHost(pinned, capacity), "cudaMallocHost of " + capacity + " bytes");
        this.pointer = new BytePointer(pinned).capacity(capacity);
        this.buffer = pointer.asByteBuffer();
    }

    int capacity() {
        return buffer.capacity();
    }

    BytePointer pointer() {
        return pointer.position(0);
    }

    /** Copies {@code n} bytes of {@code src} from absolute index {@code from} into the staging buffer. */
    void fill(final ByteBuffer src, final int from, final int n) {
        buffer.clear();
        buffer.put(0, src, from, n);
    }

    /** Copies the staging buffer's first {@code n} bytes into {@code dst} at absolute index {@code to}. */
    void drain(final ByteBuffer dst, final int to, final int n) {
        dst.put(to, buffer, 0, n);
    }

    @Override
    public void close() {
        cudart.cudaFreeHost(pinned);
    }
}
