package cctk.comm.shm;

import cctk.comm.CommBuffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** A CommBuffer no shm communicator made: a slice of a plain direct ByteBuffer. */
final class ForeignBuffer implements CommBuffer {

    private final ByteBuffer base;
    private final int offset;
    private final int length;

    private ForeignBuffer(final ByteBuffer base, final int offset, final int length) {
        this.base = base;
        this.offset = offset;
        this.length = length;
    }

    static ForeignBuffer allocate(final long bytes) {
        return new ForeignBuffer(ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.LITTLE_ENDIAN), 0,
                (int) bytes);
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
        return new ForeignBuffer(base, offset + (int) off, (int) len);
    }

    @Override
    public void upload(final ByteBuffer src, final long off) {
        final int n = src.remaining();
        if (off + n > length) {
            throw new IndexOutOfBoundsException("upload past the end");
        }
        base.put(offset + (int) off, src, src.position(), n);
    }

    @Override
    public void download(final long off, final ByteBuffer dst) {
        final int n = dst.remaining();
        if (off + n > length) {
            throw new IndexOutOfBoundsException("download past the end");
        }
        dst.put(dst.position(), base, offset + (int) off, n);
    }
}
