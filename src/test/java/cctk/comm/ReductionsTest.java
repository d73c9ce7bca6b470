package cctk.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.ShortBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The float reductions by address (direct buffers) and through heap chunks (heap buffers) give exactly the
 * element-wise Java result, touch nothing outside the range, and refuse a range past the end.
 */
class ReductionsTest {

    private static final int N = 1037; // odd, and not a multiple of the heap chunk
    private static final int CAP = 4 * N;
    private static final float[] SPECIAL = {Float.NaN, -0.0f, 0.0f, Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY, Float.MIN_VALUE, -Float.MAX_VALUE, 1.5f};

    @Test
    void reducesByAddressWhereTheJdkAllowsIt() {
        assertEquals(Runtime.version().feature() < 23, DirectMemory.AVAILABLE,
                "sun.misc.Unsafe's accessors should be found on JDK 17-22 and left alone later");
    }

    @ParameterizedTest
    @EnumSource(value = ReduceOp.class, names = {"SUM", "PROD", "MIN", "MAX"})
    void float32MatchesJavaArithmetic(final ReduceOp op) {
        for (final boolean direct : new boolean[] {true, false}) {
            final FloatBuffer a = floats(direct, 1);
            final FloatBuffer b = floats(direct, 2);
            final FloatBuffer out = floats(direct, 3);
            final float[] before = new float[CAP];
            out.get(0, before);
            Reductions.reduce(DType.FLOAT32, op, out, 3, a, 1000, b, 17, N);
            for (int i = 0; i < CAP; i++) {
                final float want = i >= 3 && i < 3 + N ? f32(op, a.get(1000 + i - 3), b.get(17 + i - 3)) : before[i];
                assertEquals(Float.floatToIntBits(want), Float.floatToIntBits(out.get(i)),
                        op + (direct ? " direct" : " heap") + " element " + i);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = ReduceOp.class, names = {"SUM", "PROD", "MIN", "MAX"})
    void float64MatchesJavaArithmetic(final ReduceOp op) {
        for (final boolean direct : new boolean[] {true, false}) {
            final DoubleBuffer a = doubles(direct, 4);
            final DoubleBuffer b = doubles(direct, 5);
            final DoubleBuffer out = doubles(direct, 6);
            final double[] before = new double[CAP];
            out.get(0, before);
            Reductions.reduce(DType.FLOAT64, op, out, 2 * N + 1, a, 5, b, 3 * N - 2, N);
            for (int i = 0; i < CAP; i++) {
                final int k = i - (2 * N + 1);
                final double want = k >= 0 && k < N ? f64(op, a.get(5 + k), b.get(3 * N - 2 + k)) : before[i];
                assertEquals(Double.doubleToLongBits(want), Double.doubleToLongBits(out.get(i)),
                        op + (direct ? " direct" : " heap") + " element " + i);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = ReduceOp.class, names = {"SUM", "PROD", "MIN", "MAX"})
    void halfFloatsMatchWidenOperateRound(final ReduceOp op) {
        for (final DType type : new DType[] {DType.FLOAT16, DType.BFLOAT16}) {
            for (final boolean direct : new boolean[] {true, false}) {
                final ShortBuffer a = halves(direct, type, 13);
                final ShortBuffer b = halves(direct, type, 14);
                final ShortBuffer out = halves(direct, type, 15);
                final short[] before = new short[CAP];
                out.get(0, before);
                Reductions.reduce(type, op, out, N + 3, a, 1, b, 2 * N, N);
                for (int i = 0; i < CAP; i++) {
                    final int k = i - (N + 3);
                    final short want = k >= 0 && k < N
                        ? narrow(type, f32(op, widen(type, a.get(1 + k)), widen(type, b.get(2 * N + k)))) : before[i];
                    assertEquals(want, out.get(i), type + " " + op + (direct ? " direct" : " heap") + " element " + i);
                }
            }
        }
    }

    @Test
    void dividesOnlyItsRange() {
        for (final boolean direct : new boolean[] {true, false}) {
            final FloatBuffer f = floats(direct, 11);
            final DoubleBuffer d = doubles(direct, 12);
            final float[] fb = new float[CAP];
            final double[] db = new double[CAP];
            f.get(0, fb);
            d.get(0, db);
            Reductions.divide(DType.FLOAT32, f, 7, N, 3);
            Reductions.divide(DType.FLOAT64, d, 2 * N, N, 6);
            for (int i = 0; i < CAP; i++) {
                final float fw = i >= 7 && i < 7 + N ? fb[i] / 3f : fb[i];
                final double dw = i >= 2 * N && i < 3 * N ? db[i] / 6.0 : db[i];
                assertEquals(Float.floatToIntBits(fw), Float.floatToIntBits(f.get(i)), "float32 element " + i);
                assertEquals(Double.doubleToLongBits(dw), Double.doubleToLongBits(d.get(i)), "float64 element " + i);
            }
        }
        assertThrows(IndexOutOfBoundsException.class,
                () -> Reductions.divide(DType.FLOAT32, floats(true, 1), CAP - N + 1, N, 2));
        for (final boolean direct : new boolean[] {true, false}) {
            final ShortBuffer h = halves(direct, DType.BFLOAT16, 16);
            final short[] hb = new short[CAP];
            h.get(0, hb);
            Reductions.divide(DType.BFLOAT16, h, 5, N, 3);
            for (int i = 0; i < CAP; i++) {
                final short want = i >= 5 && i < 5 + N ? narrow(DType.BFLOAT16, widen(DType.BFLOAT16, hb[i]) / 3f)
                    : hb[i];
                assertEquals(want, h.get(i), "bfloat16 element " + i);
            }
        }
    }

    @Test
    void reducesInPlace() {
        final FloatBuffer acc = floats(true, 7);
        final FloatBuffer in = floats(true, 8);
        final float[] want = new float[N];
        for (int i = 0; i < N; i++) {
            want[i] = acc.get(100 + i) + in.get(i);
        }
        Reductions.reduce(DType.FLOAT32, ReduceOp.SUM, acc, 100, acc, 100, in, 0, N);
        for (int i = 0; i < N; i++) {
            assertEquals(Float.floatToIntBits(want[i]), Float.floatToIntBits(acc.get(100 + i)), "element " + i);
        }
    }

    @Test
    void refusesARangePastTheEndWithoutWriting() {
        final FloatBuffer a = floats(true, 9);
        final FloatBuffer out = floats(true, 10);
        final float[] before = new float[CAP];
        out.get(0, before);
        assertThrows(IndexOutOfBoundsException.class,
                () -> Reductions.reduce(DType.FLOAT32, ReduceOp.SUM, out, CAP - N + 1, a, 0, a, 0, N));
        assertThrows(IndexOutOfBoundsException.class,
                () -> Reductions.reduce(DType.FLOAT32, ReduceOp.SUM, out, 0, a, CAP - N + 1, a, 0, N));
        assertThrows(IndexOutOfBoundsException.class,
                () -> Reductions.reduce(DType.FLOAT64, ReduceOp.MAX, doubles(true, 1), -1, doubles(true, 2), 0,
                        doubles(true, 3), 0, 1));
        final float[] after = new float[CAP];
        out.get(0, after);
        for (int i = 0; i < CAP; i++) {
            assertEquals(Float.floatToIntBits(before[i]), Float.floatToIntBits(after[i]), "element " + i);
        }
    }

    @Test
    void aViewOfASliceStartsAtItsOwnFirstByte() {
        final ByteBuffer base = ByteBuffer.allocateDirect(8 * CAP).order(ByteOrder.LITTLE_ENDIAN);
        final FloatBuffer whole = base.asFloatBuffer();
        for (int i = 0; i < whole.capacity(); i++) {
            whole.put(i, i);
        }
        final FloatBuffer tail = base.position(4 * CAP).slice().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
        Reductions.reduce(DType.FLOAT32, ReduceOp.SUM, tail, 0, tail, 0, whole, 0, 4);
        final float[] got = new float[5];
        tail.get(0, got);
        assertArrayEquals(new float[] {CAP, CAP + 2, CAP + 4, CAP + 6, CAP + 4}, got);
        assertEquals(CAP - 1, whole.get(CAP - 1), "the bytes before the slice are untouched");
    }

    private static float f32(final ReduceOp op, final float x, final float y) {
        return switch (op) {
            case SUM, AVG -> x + y;
            case PROD -> x * y;
            case MIN -> Math.min(x, y);
            case MAX -> Math.max(x, y);
        };
    }

    private static double f64(final ReduceOp op, final double x, final double y) {
        return switch (op) {
            case SUM, AVG -> x + y;
            case PROD -> x * y;
            case MIN -> Math.min(x, y);
            case MAX -> Math.max(x, y);
        };
    }

    private static ShortBuffer halves(final boolean direct, final DType type, final long seed) {
        final ShortBuffer h = bytes(direct, 2).asShortBuffer();
        final Random random = new Random(seed);
        for (int i = 0; i < CAP; i++) {
            final float v = i % 5 == 0 ? SPECIAL[random.nextInt(SPECIAL.length)] : (float) random.nextGaussian() * 50f;
            h.put(i, narrow(type, v));
        }
        return h;
    }

    private static float widen(final DType type, final short bits) {
        return type == DType.BFLOAT16 ? HalfFloats.bfloat16ToFloat(bits) : HalfFloats.float16ToFloat(bits);
    }

    private static short narrow(final DType type, final float value) {
        return type == DType.BFLOAT16 ? HalfFloats.floatToBfloat16(value) : HalfFloats.floatToFloat16(value);
    }

    private static FloatBuffer floats(final boolean direct, final long seed) {
        final FloatBuffer f = bytes(direct, 4).asFloatBuffer();
        final Random random = new Random(seed);
        for (int i = 0; i < CAP; i++) {
            f.put(i, i % 5 == 0 ? SPECIAL[random.nextInt(SPECIAL.length)] : (float) random.nextGaussian() * 1e3f);
        }
        return f;
    }

    private static DoubleBuffer doubles(final boolean direct, final long seed) {
        final DoubleBuffer d = bytes(direct, 8).asDoubleBuffer();
        final Random random = new Random(seed);
        for (int i = 0; i < CAP; i++) {
            d.put(i, i % 5 == 0 ? SPECIAL[random.nextInt(SPECIAL.length)] : random.nextGaussian() * 1e300);
        }
        return d;
    }

    private static ByteBuffer bytes(final boolean direct, final int unit) {
        return (direct ? ByteBuffer.allocateDirect(unit * CAP) : ByteBuffer.allocate(unit * CAP))
                .order(ByteOrder.LITTLE_ENDIAN);
    }
}
