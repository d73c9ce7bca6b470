package cctk.comm;

import java.nio.ByteBuffer;

/**
 * A region of memory a backend can run collectives on: host memory for tcp, device memory for nccl.
 * Slices share memory with their parent (in-place layouts are slices of one buffer).
 * <b>Note:</b> not threadsafe.
 */
public interface CommBuffer {

    /** Length in bytes. */
    long bytes();

    /** A view of {@code length} bytes starting at {@code offset}, sharing this buffer's memory. */
    CommBuffer slice(long offset, long length);

    /** Copies {@code src} (position to limit) into this buffer at {@code offset}. Not for the timed path. */
    void upload(ByteBuffer src, long offset);

    /** Copies {@code dst.remaining()} bytes from this buffer at {@code offset} into {@code dst}; not timed. */
    void download(long offset, ByteBuffer dst);

    /**
     * The host memory this buffer lies in, for code that reads another backend's buffer without a copy: a direct,
     * little-endian ByteBuffer over the whole allocation, the same object for the buffer and every slice of it; null
     * where the memory is not the host's (a GPU's). Whoever keeps views of it must {@link Communicator#forget} it
     * before its owner frees it. (The CPU backends need none of this among themselves: they share one buffer class,
     * {@link HostBuffer}, and tcp runs on the shm backend's buffers as they are.)
     */
    default ByteBuffer hostMemory() {
        return null;
    }

    /** Where this buffer starts in {@link #hostMemory()}, in bytes. */
    default long hostOffset() {
        return 0;
    }
}
