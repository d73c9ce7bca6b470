package cctk.comm.gloo;

import cctk.comm.CommBuffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.bytedeco.javacpp.BytePointer;

/**
 * Host memory the gloo backend allocated (malloc, through JavaCPP), or a slice of it: tensors are made on it without a
 * copy ({@code from_blob}), and {@code memory} is a direct little-endian view of the whole allocation (uploads and
 * downloads go through it).
 * <b>Note:</b> not threadsafe; the memory lives until the communicator frees it or closes.
 */
final class GlooBuffer implements CommBuffer {

    final BytePointer base;
    final ByteBuffer memory;
    final long offset;
    final long length;

    private GlooBuffer(final BytePointer base, final ByteBuffer memory, final long offset, final long length) {
        this.base = base;
        this.memory = memory;
        this.offset = offset;
        this.length = length;
    }

    /**
     * {@code bytes} zeroed bytes (at least one, so that an empty buffer still has an address). Never called inside a
     * pointer scope: the scope would free the memory when it closes.
     */
    static GlooBuffer allocate(final long bytes) {
        final BytePointer p = new BytePointer(Math.max(1, bytes));
        if (p.isNull()) {
            throw new OutOfMemoryError("malloc of " + bytes + " bytes failed");
        }
        p.fill(0);
        final ByteBuffer view = p.limit(Math.max(1, bytes)).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        return new GlooBuffer(p, view, 0, bytes);
    }

    /** Whether this is a whole allocation, not a slice. */
    boolean whole() {
        return offset == 0 && length == memory.capacity() || offset == 0 && length == 0;
    }

    /** The address of byte {@code at} of this buffer, for a tensor. */
    BytePointer at(final long at) {
        return new BytePointer(base).position(offset + at);
    }

    @Override
    public long bytes() {
        return length;
    }

    @Override
    public CommBuffer slice(final long at, final long bytes) {
        if (at < 0 || bytes < 0 || at + bytes > length) {
            throw new IndexOutOfBoundsException("slice of " + bytes + " bytes at " + at + " of a " + length
                    + "-byte buffer");
        }
        return new GlooBuffer(base, memory, offset + at, bytes);
    }

    @Override
    public void upload(final ByteBuffer src, final long at) {
        final int n = src.remaining();
        if (at < 0 || at + n > length) {
            throw new IndexOutOfBoundsException(n + " bytes at " + at + " of a " + length + "-byte buffer");
        }
        memory.duplicate().position((int) (offset + at)).put(src.duplicate());
    }

    @Override
    public void download(final long at, final ByteBuffer dst) {
        final int n = dst.remaining();
        if (at < 0 || at + n > length) {
            throw new IndexOutOfBoundsException(n + " bytes at " + at + " of a " + length + "-byte buffer");
        }
        final ByteBuffer src = memory.duplicate();
        src.position((int) (offset + at)).limit((int) (offset + at + n));
        dst.put(src);
    }

    @Override
    public String toString() {
        return "gloo buffer of " + length + " bytes at " + offset;
    }
}
