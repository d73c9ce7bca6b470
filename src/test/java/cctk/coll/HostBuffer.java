package cctk.coll;

import cctk.comm.CommBuffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Test helper: host memory as the tcp backend holds it (one direct little-endian ByteBuffer, absolute bulk copies
 * on upload and download), without a communicator. Slices share memory. Tests read and corrupt its bytes directly.
 */
public final class HostBuffer implements CommBuffer {

    private final ByteBuffer base;
    private final int offset;
    private final int length;

    private HostBuffer(final ByteBuffer base, final int offset, final int length) {
        this.base = base;
        this.offset = offset;
        this.length = length;
    }

    /** A fresh buffer of {@code bytes} zero bytes. */
    public static HostBuffer allocate(final long bytes) {
        return new HostBuffer(ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.LITTLE_ENDIAN), 0, (int) bytes);
    }

    @Override
    public long bytes() {
        return length;
    }

    @Override
    public CommBuffer slice(final long off, final long len) {
        if (off < 0 || len < 0 || off + len > length) {
            throw new IndexOutOfBoundsException(off + "+" + len + " > " + length);
        }
        return new HostBuffer(base, offset + (int) off, (int) len);
    }

    @Override
    public void upload(final ByteBuffer src, final long off) {
        final int n = src.remaining();
        if (off < 0 || off + n > length) {
            throw new IndexOutOfBoundsException("upload of " + n + " at " + off + " into " + length);
        }
        base.put(offset + (int) off, src, src.position(), n);
        src.position(src.limit());
    }

    @Override
    public void download(final long off, final ByteBuffer dst) {
        final int n = dst.remaining();
        if (off < 0 || off + n > length) {
            throw new IndexOutOfBoundsException("download of " + n + " at " + off + " from " + length);
        }
        dst.put(dst.position(), base, offset + (int) off, n);
        dst.position(dst.limit());
    }

    /** Byte {@code at} of this buffer. */
    public byte get(final long at) {
        return base.get(offset + (int) at);
    }

    /** Sets byte {@code at} of this buffer. */
    public void put(final long at, final byte b) {
        base.put(offset + (int) at, b);
    }

    /** Copies {@code n} bytes of this buffer from {@code from} to {@code to} (overlap allowed, as memmove). */
    public void move(final long from, final long to, final int n) {
        final byte[] tmp = new byte[n];
        base.get(offset + (int) from, tmp);
        base.put(offset + (int) to, tmp);
    }
}
