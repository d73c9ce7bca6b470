package cctk.comm.gloo;

import cctk.comm.CommBuffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.bytedeco.javacpp.BytePointer;

/**
 * Host memory the gloo backend allocated (malloc, through JavaCPP), or a slice of it: tensors are made on it without a
 * copy ({@code from_blob}), and {@code memory} is a direct little-endian view of the whole allocation (uploads and
 * downloads go through it). Every allocation starts on a page boundary (4 KiB): where a buffer starts within its page
 * changes what the kernel's copy out of a socket costs (on a 2-vCPU VM a 64 MiB broadcast through Gloo took 13-14 ms
 * a call into a page-aligned buffer and 25-29 ms into one 64 bytes into its page, where PyTorch's allocator puts
 * it), so a figure never depends on where malloc happened to put the memory.
 * <b>Note:</b> not threadsafe; the memory lives until the communicator frees it or closes.
 */
final class GlooBuffer implements CommBuffer {

    private static final long PAGE = 4096;

    /** The memory's first page; not the allocation (see {@link #release}). */
    final BytePointer base;
    final ByteBuffer memory;
    private final BytePointer owner;
    final long offset;
    final long length;

    private GlooBuffer(final BytePointer owner, final BytePointer base, final ByteBuffer memory, final long offset,
                       final long length) {
        this.owner = owner;
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
        final long n = Math.max(1, bytes);
        final BytePointer p = new BytePointer(n + PAGE - 1);
        if (p.isNull()) {
            throw new OutOfMemoryError("malloc of " + bytes + " bytes failed");
        }
        final BytePointer page = p.getPointer((PAGE - (p.address() & (PAGE - 1))) & (PAGE - 1)).capacity(n);
        page.fill(0);
        final ByteBuffer view = page.limit(n).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        return new GlooBuffer(p, page, view, 0, bytes);
    }

    /** Frees the allocation (a whole buffer's; its slices must not be used after). */
    void release() {
        owner.deallocate();
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
        return new GlooBuffer(owner, base, memory, offset + at, bytes);
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
