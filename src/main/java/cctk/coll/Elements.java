package cctk.coll;

import cctk.comm.DType;
import cctk.comm.HalfFloats;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads and writes single elements of every {@link DType} in host staging buffers, little-endian as on
 * x86, ARM and GPUs; integers wrap as two's complement. Values travel as doubles, which hold every
 * element value of every type exactly (int64 only up to 2^53, more than any pattern uses).
 */
public final class Elements {

    /** Byte order of element data in every buffer cctk fills or checks. */
    public static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private Elements() {
    }

    /** Writes {@code value} as element {@code index} of {@code buf} (absolute, ignores position). */
    public static void put(final ByteBuffer buf, final DType type, final int index, final double value) {
        final int at = index * type.bytes();
        switch (type) {
            case FLOAT32 -> buf.order(ORDER).putFloat(at, (float) value);
            case FLOAT64 -> buf.order(ORDER).putDouble(at, value);
            case FLOAT16 -> buf.order(ORDER).putShort(at, HalfFloats.floatToFloat16((float) value));
            case BFLOAT16 -> buf.order(ORDER).putShort(at, HalfFloats.floatToBfloat16((float) value));
            case INT8, UINT8 -> buf.put(at, (byte) (long) value);
            case INT32 -> buf.order(ORDER).putInt(at, (int) (long) value);
            case INT64 -> buf.order(ORDER).putLong(at, (long) value);
            default -> throw new IllegalArgumentException(type.toString());
        }
    }

    /** Element {@code index} of {@code buf} as a double (uint8 as 0..255). */
    public static double get(final ByteBuffer buf, final DType type, final int index) {
        final int at = index * type.bytes();
        return switch (type) {
            case FLOAT32 -> buf.order(ORDER).getFloat(at);
            case FLOAT64 -> buf.order(ORDER).getDouble(at);
            case FLOAT16 -> HalfFloats.float16ToFloat(buf.order(ORDER).getShort(at));
            case BFLOAT16 -> HalfFloats.bfloat16ToFloat(buf.order(ORDER).getShort(at));
            case INT8 -> buf.get(at);
            case UINT8 -> buf.get(at) & 0xFF;
            case INT32 -> buf.order(ORDER).getInt(at);
            case INT64 -> buf.order(ORDER).getLong(at);
        };
    }

    /** {@code v} wrapped into the range of an integer type as two's complement arithmetic would; floats pass. */
    public static double wrap(final DType type, final long v) {
        return switch (type) {
            case INT8 -> (byte) v;
            case UINT8 -> v & 0xFF;
            case INT32 -> (int) v;
            default -> v;
        };
    }

    /** Mantissa bits of a floating type (the unit in the last place of 1.0 is 2^-bits); 0 for integers. */
    public static int mantissaBits(final DType type) {
        return switch (type) {
            case FLOAT32 -> 23;
            case FLOAT64 -> 52;
            case FLOAT16 -> 10;
            case BFLOAT16 -> 7;
            default -> 0;
        };
    }
}
