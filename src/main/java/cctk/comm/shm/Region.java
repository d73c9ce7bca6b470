package cctk.comm.shm;

import cctk.comm.DType;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The payload of one mapped segment (this rank's or a peer's) or of private scratch memory: little-endian bytes at
 * index 0, a second view to copy from, and typed views for {@link cctk.comm.Reductions}, made on first use so that
 * steady-state collectives allocate nothing. Typed views never leave this object. A region whose mapping is unmapped
 * is marked freed first ({@link #markFreed}); buffers check that before they touch it, since reading unmapped memory
 * would crash the JVM.
 * <b>Note:</b> not threadsafe.
 */
final class Region {

    private static final int TYPES = DType.values().length;

    final ByteBuffer data;
    private final ByteBuffer source;
    private final Buffer[] typed = new Buffer[TYPES];
    private boolean freed;

    Region(final ByteBuffer data) {
        this.data = data.order(ByteOrder.LITTLE_ENDIAN);
        this.source = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Called just before the mapping goes: every later use through a buffer fails instead of crashing. */
    void markFreed() {
        freed = true;
    }

    boolean freed() {
        return freed;
    }

    int bytes() {
        return data.capacity();
    }

    /** The whole region as elements of {@code type}; element i starts at byte i * type.bytes(). */
    Buffer typed(final DType type) {
        Buffer t = typed[type.ordinal()];
        if (t == null) {
            final ByteBuffer b = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
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

    /** Copies {@code len} bytes of {@code src} at {@code srcOff} to this region at {@code off}. */
    void copyFrom(final int off, final Region src, final int srcOff, final int len) {
        if (len == 0 || src == this && srcOff == off) {
            return;
        }
        data.put(off, src.source, srcOff, len);
    }
}
