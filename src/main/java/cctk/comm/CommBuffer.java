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
}
