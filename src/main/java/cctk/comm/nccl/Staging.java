package cctk.comm.nccl;

import java.nio.ByteBuffer;
import org.bytedeco.javacpp.BytePointer;

/**
 * A direct host buffer that cudaMemcpy can read and write; heap ByteBuffers (what the harness fills) have no
 * stable address. Not on the timed path.
 * <b>Note:</b> not threadsafe.
 */
final class Staging {

    private final ByteBuffer buffer;
    private final BytePointer pointer;

    Staging(final int capacity) {
        this.buffer = ByteBuffer.allocateDirect(capacity);
        this.pointer = new BytePointer(buffer);
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
}
