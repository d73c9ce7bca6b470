package cctk.comm;

/**
 * Conversions between float and the two 16-bit float formats (IEEE 754 binary16 and bfloat16), since Java 17
 * has none. Narrowing rounds to nearest, ties to even; NaN stays NaN (quiet), infinities and signed zeros survive.
 */
public final class HalfFloats {

    private HalfFloats() {
    }

    /** The float value of binary16 bits {@code h} (exact: every binary16 value is a float). */
    public static float float16ToFloat(final short h) {
        final int bits = h & 0xffff;
        final int sign = (bits & 0x8000) << 16;
        final int exp = (bits >>> 10) & 0x1f;
        final int mant = bits & 0x3ff;
        if (exp == 0) {
            // zero or subnormal: mant * 2^-24 is exact in float
            final float mag = mant * 0x1p-24f;
            return sign == 0 ? mag : -mag;
        }
        if (exp == 0x1f) {
            return Float.intBitsToFloat(sign | 0x7f800000 | (mant << 13));
        }
        return Float.intBitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
    }

    /** The binary16 bits nearest to {@code f} (ties to even); beyond the largest finite value gives infinity. */
    public static short floatToFloat16(final float f) {
        final int bits = Float.floatToRawIntBits(f);
        final int sign = (bits >>> 16) & 0x8000;
        final int abs = bits & 0x7fffffff;
        if (abs >= 0x7f800000) {
            // infinity keeps mantissa 0; NaN keeps its top payload bits and is forced quiet (never becomes infinity)
            return (short) (abs == 0x7f800000 ? sign | 0x7c00 : sign | 0x7e00 | ((abs >>> 13) & 0x3ff));
        }
        if (abs >= 0x477ff000) {
            // 65520 and above round to infinity (65520 is the tie between 65504 and 2^16; 65504's mantissa is odd)
            return (short) (sign | 0x7c00);
        }
        if (abs < 0x38800000) {
            // below 2^-14 the result is subnormal: adding 0.5 lets the FPU round at the 2^-24 step, ties to even
            final int r = Float.floatToRawIntBits(Float.intBitsToFloat(abs) + 0.5f) - 0x3f000000;
            return (short) (sign | r);
        }
        final int rounded = abs + 0xfff + ((abs >>> 13) & 1);
        return (short) (sign | ((rounded - (112 << 23)) >>> 13));
    }

    /** The float value of bfloat16 bits {@code b} (exact). */
    public static float bfloat16ToFloat(final short b) {
        return Float.intBitsToFloat((b & 0xffff) << 16);
    }

    /** The bfloat16 bits nearest to {@code f} (ties to even); NaN stays a quiet NaN. */
    public static short floatToBfloat16(final float f) {
        final int bits = Float.floatToRawIntBits(f);
        if ((bits & 0x7fffffff) > 0x7f800000) {
            return (short) ((bits >>> 16) | 0x40);
        }
        return (short) ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16);
    }
}
