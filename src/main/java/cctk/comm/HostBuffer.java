package cctk.comm;

import java.nio.ByteBuffer;

/**
 * The buffer of the CPU backends (tcp, shm, hierarchical): {@code length} bytes at {@code offset} of one
 * {@link HostMemory}, which all slices of an allocation share. Whatever backend made it, tcp runs on it in place,
 * so the leaders of a hierarchical communicator run tcp straight on the node's shared memory. Every use of it after
 * its memory was freed fails ({@link #live}).
 * <b>Note:</b> not threadsafe.
 */
public final class HostBuffer implements CommBuffer {

    public final HostMemory memory;
    public final int offset;
    public final int length;

    public HostBuffer(final HostMemory memory, final int offset, final int length) {
        this.memory = memory;
        this.offset = offset;
        this.length = length;
    }

    /** A whole, zeroed allocation of {@code bytes} of direct memory ({@link HostMemory#allocate}). */
    public static HostBuffer allocate(final int bytes) {
        return new HostBuffer(HostMemory.allocate(bytes), 0, bytes);
    }

    @Override
    public long bytes() {
        return length;
    }

    @Override
    public CommBuffer slice(final long off, final long len) {
        if (off < 0 || len < 0 || off + len > length) {
            throw new IndexOutOfBoundsException("slice [" + off + ", " + (off + len) + ") of " + length + " bytes");
        }
        return new HostBuffer(memory, offset + (int) off, (int) len);
    }

    /** Whether this is a whole allocation rather than a slice of one. */
    public boolean whole() {
        return offset == 0 && length == memory.bytes();
    }

    /** Throws when the memory was freed: it must not be read or written any more. */
    public void live() {
        if (memory.freed()) {
            throw new IllegalStateException("a host buffer of " + length + " bytes was used after it was freed");
        }
    }

    /** Copies {@code src}'s remaining bytes to {@code off} of this buffer; {@code src} ends at its limit. */
    @Override
    public void upload(final ByteBuffer src, final long off) {
        live();
        final int n = src.remaining();
        if (off < 0 || off + n > length) {
            throw new IndexOutOfBoundsException("upload of " + n + " bytes at " + off + " into " + length);
        }
        memory.base().put(offset + (int) off, src, src.position(), n);
        src.position(src.limit());
    }

    /** Fills {@code dst}'s remaining bytes from {@code off} of this buffer; {@code dst} ends at its limit. */
    @Override
    public void download(final long off, final ByteBuffer dst) {
        live();
        final int n = dst.remaining();
        if (off < 0 || off + n > length) {
            throw new IndexOutOfBoundsException("download of " + n + " bytes at " + off + " from " + length);
        }
        dst.put(dst.position(), memory.base(), offset + (int) off, n);
        dst.position(dst.limit());
    }

    /**
     * Copies {@code len} bytes at {@code off} of this buffer to {@code dst} at {@code dstOff}, through
     * {@code dst}'s {@link CommBuffer#upload} (any backend's buffer); allocates nothing once cursor 0 exists.
     */
    public void copyTo(final long off, final CommBuffer dst, final long dstOff, final long len) {
        if (len > 0) {
            dst.upload(window(off, len), dstOff);
        }
    }

    /** Fills {@code len} bytes at {@code off} of this buffer from {@code src} at {@code srcOff} (its download). */
    public void copyFrom(final CommBuffer src, final long srcOff, final long off, final long len) {
        if (len > 0) {
            src.download(srcOff, window(off, len));
        }
    }

    private ByteBuffer window(final long off, final long len) {
        live();
        if (off < 0 || len < 0 || off + len > length) {
            throw new IndexOutOfBoundsException(len + " bytes at " + off + " of " + length);
        }
        final ByteBuffer c = memory.cursor(0);
        c.limit(offset + (int) (off + len)).position(offset + (int) off);
        return c;
    }

    /** Whether this and {@code other} share any byte. */
    public boolean overlaps(final HostBuffer other) {
        return memory == other.memory && offset < other.offset + other.length && other.offset < offset + length;
    }

    @Override
    public String toString() {
        final Object tag = memory.tag();
        return "host buffer of " + length + " bytes" + (tag == null ? "" : " (" + tag + ")");
    }
}
