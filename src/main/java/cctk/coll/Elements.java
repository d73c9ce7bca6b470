package cctk.coll;

import cctk.comm.DType;
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
            case FLOAT16 -> buf.order(ORDER).putShort(at, toHalf((float) value));
            case BFLOAT16 -> buf.order(ORDER).putShort(at, toBfloat16((float) value));
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
            case FLOAT16 -> fromHalf(buf.order(ORDER).getShort(at));
            case BFLOAT16 -> Float.intBitsToFloat(buf.order(ORDER).getShort(at) << 16);
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

    /** float to bfloat16, rounding to nearest even; NaN stays NaN. */
    public static short toBfloat16(final float f) {
        final int bits = Float.floatToRawIntBits(f);
        if (Float.isNaN(f)) {
            return (short) ((bits >>> 16) | 0x40);
        }
        final int rounding = 0x7FFF + ((bits >>> 16) & 1);
        return (short) ((bits + rounding) >>> 16);
    }

    /** IEEE half to float, including subnormals, infinities and NaN. */
    public static float fromHalf(final short h) {
        final int sign = (h & 0x8000) << 16;
        final int exp = (h >>> 10) & 0x1F;
        final int mant = h & 0x3FF;
        if (exp == 0x1F) {
            return Float.intBitsToFloat(sign | 0x7F800000 | (mant << 13));
        }
        if (exp == 0) {
            final float v = mant * 0x1p-24f;
            return sign != 0 ? -v : v;
        }
        return Float.intBitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
    }

    /** float to IEEE half, rounding to nearest even; overflow gives infinity. */
    public static short toHalf(final float f) {
        final int bits = Float.floatToRawIntBits(f);
        final int sign = (bits >>> 16) & 0x8000;
        final float abs = Math.abs(f);
        if (Float.isNaN(f)) {
            return (short) (sign | 0x7E00);
        }
        if (abs >= 65520f) {
            return (short) (sign | 0x7C00);
        }
        if (abs < 0x1p-14f) {
            // subnormal: units of 2^-24, Math.rint rounds half to even
            return (short) (sign | (int) Math.rint(abs * 0x1p24f));
        }
        final int a = bits & 0x7FFFFFFF;
        final int rounded = a + 0xFFF + ((a >>> 13) & 1);
        return (short) (sign | ((rounded >>> 13) - (112 << 10)));
    }
}
