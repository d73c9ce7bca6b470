package cctk.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * All 65536 bit patterns of both 16-bit formats, checked against references computed another way: widening by
 * decoding the fields into a BigDecimal, narrowing by searching the nearest representable value in double.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HalfFloatsTest {

    @Test
    void float16WideningMatchesTheFieldDecoding() {
        for (int h = 0; h < 0x10000; h++) {
            final float got = HalfFloats.float16ToFloat((short) h);
            final int exp = (h >>> 10) & 0x1f;
            final int mant = h & 0x3ff;
            final boolean negative = (h & 0x8000) != 0;
            if (exp == 0x1f) {
                assertThat(mant == 0 ? Float.isInfinite(got) : Float.isNaN(got)).as("pattern %x", h).isTrue();
                continue;
            }
            // value = mant * 2^-24 (subnormal) or (1024 + mant) * 2^(exp - 25)
            BigDecimal v = exp == 0 ? BigDecimal.valueOf(mant).multiply(pow2(-24))
                    : BigDecimal.valueOf(1024 + mant).multiply(pow2(exp - 25));
            v = negative ? v.negate() : v;
            assertThat(new BigDecimal(got)).as("pattern %x", h).isEqualByComparingTo(v);
            assertThat(Float.floatToRawIntBits(got) < 0).as("sign of %x", h).isEqualTo(negative);
        }
    }

    @Test
    void bfloat16WideningMatchesTheFieldDecoding() {
        for (int b = 0; b < 0x10000; b++) {
            final float got = HalfFloats.bfloat16ToFloat((short) b);
            final int exp = (b >>> 7) & 0xff;
            final int mant = b & 0x7f;
            if (exp == 0xff) {
                assertThat(mant == 0 ? Float.isInfinite(got) : Float.isNaN(got)).as("pattern %x", b).isTrue();
                continue;
            }
            BigDecimal v = exp == 0 ? BigDecimal.valueOf(mant).multiply(pow2(-133))
                    : BigDecimal.valueOf(128 + mant).multiply(pow2(exp - 134));
            v = (b & 0x8000) != 0 ? v.negate() : v;
            assertThat(new BigDecimal(got)).as("pattern %x", b).isEqualByComparingTo(v);
        }
    }

    @Test
    void float16NarrowingRoundsToNearestEvenEverywhere() {
        for (int h = 0; h < 0x10000; h++) {
            final float f = HalfFloats.float16ToFloat((short) h);
            if (Float.isNaN(f)) {
                assertThat(Float.isNaN(HalfFloats.float16ToFloat(HalfFloats.floatToFloat16(f)))).isTrue();
                continue;
            }
            assertThat(HalfFloats.floatToFloat16(f)).as("round trip %x", h).isEqualTo((short) h);
            if (Float.isInfinite(f)) {
                continue;
            }
            // the midpoint to the next value up in magnitude and its float neighbours
            final float up = nextUpInMagnitude16(h);
            final float mid = (float) (((double) f + up) / 2);
            for (final float x : new float[] {mid, Math.nextDown(mid), Math.nextUp(mid)}) {
                final short want = nearest16(x, h);
                assertThat(HalfFloats.floatToFloat16(x)).as("rounding %s near %x", x, h).isEqualTo(want);
            }
        }
    }

    @Test
    void bfloat16NarrowingRoundsToNearestEvenEverywhere() {
        for (int b = 0; b < 0x10000; b++) {
            final float f = HalfFloats.bfloat16ToFloat((short) b);
            if (Float.isNaN(f)) {
                assertThat(Float.isNaN(HalfFloats.bfloat16ToFloat(HalfFloats.floatToBfloat16(f)))).isTrue();
                continue;
            }
            assertThat(HalfFloats.floatToBfloat16(f)).as("round trip %x", b).isEqualTo((short) b);
            if (Float.isInfinite(f) || (b & 0x7fff) == 0x7f7f) {
                continue;
            }
            final float up = HalfFloats.bfloat16ToFloat((short) (b + 1));
            final float mid = (float) (((double) f + up) / 2);
            final boolean evenLow = (b & 1) == 0;
            assertThat(HalfFloats.floatToBfloat16(mid)).as("tie at %x", b).isEqualTo((short) (evenLow ? b : b + 1));
            assertThat(HalfFloats.floatToBfloat16(Math.nextDown(Math.abs(mid)) * Math.signum(mid)))
                    .as("below tie at %x", b).isEqualTo((short) b);
            assertThat(HalfFloats.floatToBfloat16(Math.nextUp(Math.abs(mid)) * Math.signum(mid)))
                    .as("above tie at %x", b).isEqualTo((short) (b + 1));
        }
    }

    @Test
    void float16OverflowAndUnderflowEdges() {
        assertThat(HalfFloats.floatToFloat16(65504f)).isEqualTo((short) 0x7bff);
        assertThat(HalfFloats.floatToFloat16(65519.99f)).isEqualTo((short) 0x7bff);
        assertThat(HalfFloats.floatToFloat16(65520f)).isEqualTo((short) 0x7c00);
        assertThat(HalfFloats.floatToFloat16(-1e10f)).isEqualTo((short) 0xfc00);
        assertThat(HalfFloats.floatToFloat16(0x1p-25f)).isEqualTo((short) 0);
        assertThat(HalfFloats.floatToFloat16(Math.nextUp(0x1p-25f))).isEqualTo((short) 1);
        assertThat(HalfFloats.floatToFloat16(-0f)).isEqualTo((short) 0x8000);
        assertThat(HalfFloats.floatToBfloat16(Float.MAX_VALUE)).isEqualTo((short) 0x7f80);
    }

    private static float nextUpInMagnitude16(final int h) {
        if ((h & 0x7fff) == 0x7bff) {
            return Math.copySign(65536f, HalfFloats.float16ToFloat((short) h));
        }
        return HalfFloats.float16ToFloat((short) (h + 1));
    }

    /** The reference: whichever of pattern {@code h} and its successor is closer to x; ties to the even one. */
    private static short nearest16(final float x, final int h) {
        final double lo = HalfFloats.float16ToFloat((short) h);
        final double hi = nextUpInMagnitude16(h);
        final double dLo = Math.abs(x - lo);
        final double dHi = Math.abs(x - hi);
        final int other = (h & 0x7fff) == 0x7bff ? (h & 0x8000) | 0x7c00 : h + 1;
        if (dLo < dHi || (dLo == dHi && (h & 1) == 0)) {
            return (short) h;
        }
        return (short) other;
    }

    private static BigDecimal pow2(final int e) {
        return e >= 0 ? new BigDecimal(java.math.BigInteger.ONE.shiftLeft(e))
                : BigDecimal.ONE.divide(new BigDecimal(java.math.BigInteger.ONE.shiftLeft(-e)));
    }
}
