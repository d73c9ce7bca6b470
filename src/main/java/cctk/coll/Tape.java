package cctk.coll;

import cctk.comm.DType;
import java.nio.ByteBuffer;
import java.util.function.IntToDoubleFunction;

/**
 * One period of values, encoded in the buffers' element format and written twice in a row, so that any rotation
 * of it (a tile, see {@link Period}) is one contiguous run of bytes. The array is reused from case to case and
 * grows only when a case needs a longer period.
 * <b>Note:</b> not threadsafe.
 */
final class Tape {

    private byte[] bytes = new byte[0];
    private ByteBuffer view = ByteBuffer.wrap(bytes);
    private DType type;

    /** Encodes {@code value(u)} for u in 0..p-1 as {@code type}, twice. */
    void build(final DType t, final int p, final IntToDoubleFunction value) {
        final int half = p * t.bytes();
        if (bytes.length < 2 * half) {
            bytes = new byte[2 * half];
            view = ByteBuffer.wrap(bytes);
        }
        type = t;
        for (int u = 0; u < p; u++) {
            Elements.put(view, t, u, value.applyAsDouble(u));
        }
        System.arraycopy(bytes, 0, bytes, half, half);
    }

    byte[] bytes() {
        return bytes;
    }

    /** The value that starts at byte {@code at} (a multiple of the element size). */
    double valueAt(final int at) {
        return Elements.get(view, type, at / type.bytes());
    }
}
