package cctk.comm;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One allocation of host memory that the CPU backends run on, shared by every {@link HostBuffer} sliced from it:
 * little-endian bytes from index 0 ({@link #base}), and the views collectives need, each made on first use so that
 * steady-state collectives allocate nothing: a view to copy from, typed views for {@link Reductions}, and per-slot
 * cursors (independent position and limit) for socket reads and writes and for copies to or from other buffers.
 * Whoever takes a cursor sets its position and limit before each use; only ops posted together take distinct slots.
 * <p>
 * Memory is either owned ({@link #allocate}: direct memory that {@link #free} gives back at once, through
 * {@link DirectBuffers}) or given back by its maker ({@link #over}: a mapped segment, which its maker unmaps right
 * after {@link #free}). Either way every use after {@link #free} fails, through {@link HostBuffer#live} or the
 * backend's own checks, instead of touching memory that is gone (reading unmapped memory would crash the JVM).
 * Its maker may tag it ({@link #tag}): the shm backend keeps its segment (owner table, slot, generation) there.
 * At most 2 GiB - 1 bytes (one ByteBuffer).
 * <b>Note:</b> not threadsafe.
 */
public final class HostMemory {

    private static final ByteBuffer[] NO_CURSORS = new ByteBuffer[0];

    private final ByteBuffer base;
    private final boolean owned;
    private final Object tag;
    private ByteBuffer source;
    private ByteBuffer[] cursors = NO_CURSORS;
    private final Buffer[] typed = new Buffer[DType.values().length];
    private boolean freed;

    private HostMemory(final ByteBuffer base, final boolean owned, final Object tag) {
        this.base = base.order(ByteOrder.LITTLE_ENDIAN);
        this.owned = owned;
        this.tag = tag;
    }

    /** {@code bytes} of new, zeroed direct memory, given back by {@link #free}. */
    public static HostMemory allocate(final int bytes) {
        return new HostMemory(ByteBuffer.allocateDirect(bytes), true, null);
    }

    /**
     * Memory over {@code base} (a slice of a mapping), which its maker gives back after {@link #free};
     * {@code tag}: what the maker keeps about it, or null.
     */
    public static HostMemory over(final ByteBuffer base, final Object tag) {
        return new HostMemory(base, false, tag);
    }

    /** The whole memory, little-endian; the same object for every buffer of this allocation. */
    public ByteBuffer base() {
        return base;
    }

    /** What the maker tagged this memory with ({@link #over}), or null. */
    public Object tag() {
        return tag;
    }

    public int bytes() {
        return base.capacity();
    }

    /**
     * Marks the memory freed, drops its views and, where it is owned, gives it back now; every later use fails.
     * Memory of {@link #over} is given back by its maker, right after this. Idempotent.
     */
    public void free() {
        if (!freed) {
            freed = true;
            source = null;
            cursors = NO_CURSORS;
            Arrays.fill(typed, null);
            if (owned) {
                DirectBuffers.free(base);
            }
        }
    }

    /** Whether {@link #free} ran. */
    public boolean freed() {
        return freed;
    }

    /** The cursor of slot {@code slot}: an independent position and limit over the whole memory. */
    public ByteBuffer cursor(final int slot) {
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

    /** The whole memory as elements of {@code type}; element i starts at byte i * type.bytes(). */
    public Buffer typed(final DType type) {
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

    /**
     * Copies {@code len} bytes of {@code src} at {@code srcOff} to this memory at {@code off} (the ranges must not
     * overlap unless they are the same bytes, which are left alone).
     */
    public void copyFrom(final int off, final HostMemory src, final int srcOff, final int len) {
        if (len == 0 || src == this && srcOff == off) {
            return;
        }
        if (src.source == null) {
            src.source = src.base.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        }
        base.put(off, src.source, srcOff, len);
    }
}
