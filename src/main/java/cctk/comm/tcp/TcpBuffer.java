package cctk.comm.tcp;

import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.DirectBuffers;
import cctk.comm.HostCopies;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Host memory for the tcp backend: a slice of one direct, little-endian ByteBuffer allocated once. Keeps the
 * per-slot cursors (duplicates) that socket reads and writes move, and typed views for reductions, created on
 * first use so that steady-state collectives allocate nothing. At most 2 GiB - 1 bytes (one ByteBuffer). Its memory
 * is given back by {@link Memory#free} (through {@link DirectBuffers}), after which every use of it fails. The
 * memory may also be borrowed: another backend's host memory ({@link HostViews}), which free never gives back.
 * <b>Note:</b> not threadsafe.
 */
public final class TcpBuffer implements CommBuffer {

    /** The memory all slices of one allocation share. */
    static final class Memory {
        final ByteBuffer base;
        private ByteBuffer[] cursors = new ByteBuffer[0];
        private final Buffer[] typed = new Buffer[DType.values().length];
        private final boolean borrowed;
        private boolean freed;

        Memory(final ByteBuffer base) {
            this(base, false);
        }

        /** Memory over {@code base}; {@code borrowed}: another owner's, never given back from here. */
        Memory(final ByteBuffer base, final boolean borrowed) {
            this.base = base.order(ByteOrder.LITTLE_ENDIAN);
            this.borrowed = borrowed;
        }

        /**
         * Gives the memory back now (borrowed memory: stops using it); every later use of this memory or its views
         * fails. Idempotent.
         */
        void free() {
            if (!freed) {
                freed = true;
                cursors = new ByteBuffer[0];
                java.util.Arrays.fill(typed, null);
                if (!borrowed) {
                    DirectBuffers.free(base);
                }
            }
        }

        /** Whether {@link #free} ran. */
        boolean freed() {
            return freed;
        }

        /** The cursor of transfer slot {@code slot}: an independent position/limit over this memory. */
        ByteBuffer cursor(final int slot) {
            if (slot >= cursors.length) {
                final ByteBuffer[] grown = new ByteBuffer[Math.max(slot + 1, cursors.length * 2)];
                System.arraycopy(cursors, 0, grown, 0, cursors.length);
                cursors = grown;
            }
            ByteBuffer c = cursors[slot];
            if (c == null) {
                c = base.duplicate().order(ByteOrder.LITTLE_ENDIAN);
                cursors[slot] = c;
            }
            return c;
        }

        /** The whole memory seen as elements of {@code type}; element i starts at byte i * type.bytes(). */
        Buffer typed(final DType type) {
            Buffer t = typed[type.ordinal()];
            if (t == null) {
                final ByteBuffer b = base.duplicate().order(ByteOrder.LITTLE_ENDIAN);
                t = switch (type) {
                    case FLOAT32 -> b.asFloatBuffer();
                    case FLOAT64 -> b.asDoubleBuffer();
                    case FLOAT16, BFLOAT16 -> b.asShortBuffer();
                    case INT8, UINT8 -> b;
                    case INT32 -> b.asIntBuffer();
                    case INT64 -> b.asLongBuffer();
                };
                typed[type.ordinal()] = t;
            }
            return t;
        }
    }

    final Memory memory;
    final int offset;
    final int length;

    TcpBuffer(final Memory memory, final int offset, final int length) {
        this.memory = memory;
        this.offset = offset;
        this.length = length;
    }

    static TcpBuffer allocate(final int bytes) {
        return new TcpBuffer(new Memory(ByteBuffer.allocateDirect(bytes)), 0, bytes);
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
        return new TcpBuffer(memory, offset + (int) off, (int) len);
    }

    /** Whether this is a whole allocation rather than a slice of one. */
    boolean whole() {
        return offset == 0 && length == memory.base.capacity();
    }

    /** Throws when the memory was freed: it must not be read or written any more. */
    void live() {
        if (memory.freed) {
            throw new IllegalStateException("a tcp buffer of " + length + " bytes was used after it was freed");
        }
    }

    @Override
    public void upload(final ByteBuffer src, final long off) {
        live();
        HostCopies.upload(memory.base, offset, length, src, off);
    }

    @Override
    public void download(final long off, final ByteBuffer dst) {
        live();
        HostCopies.download(memory.base, offset, length, off, dst);
    }

    /** Whether this and {@code other} share any byte. */
    boolean overlaps(final TcpBuffer other) {
        return memory == other.memory && offset < other.offset + other.length && other.offset < offset + length;
    }
}
