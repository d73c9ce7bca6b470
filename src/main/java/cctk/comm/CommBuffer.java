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
     * The host memory this buffer lies in, so that a backend can run on another backend's buffers without a copy
     * (the leaders of a hierarchical communicator run tcp straight on the node's shared memory): a direct,
     * little-endian ByteBuffer over the whole allocation, the same object for the buffer and every slice of it; null
     * where the memory is not the host's (a GPU's). Whoever runs on it must {@link Communicator#forget} it before its
     * owner frees it.
     */
    default ByteBuffer hostMemory() {
        return null;
    }

    /** Where this buffer starts in {@link #hostMemory()}, in bytes. */
    default long hostOffset() {
        return 0;
    }
}
