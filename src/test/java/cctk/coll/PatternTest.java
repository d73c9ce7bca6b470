package cctk.coll;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.comm.DType;
import cctk.comm.ReduceOp;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class PatternTest {

    /** Rounds through the type's storage, as a backend accumulating in that type would. */
    private static double store(final DType t, final double v) {
        final ByteBuffer b = ByteBuffer.allocate(8);
        Elements.put(b, t, 0, v);
        return Elements.get(b, t, 0);
    }

    private static double step(final DType t, final ReduceOp op, final double acc, final double x) {
        if (!t.floating()) {
            final long a = (long) acc;
            final long y = (long) x;
            return Elements.wrap(t, switch (op) {
                case SUM, AVG -> a + y;
                case PROD -> a * y;
                case MIN -> Math.min(a, y);
                case MAX -> Math.max(a, y);
            });
        }
        return store(t, switch (op) {
            case SUM, AVG -> acc + x;
            case PROD -> acc * x;
            case MIN -> Math.min(acc, x);
            case MAX -> Math.max(acc, x);
        });
    }

    /** Reduces in type precision, forwards or backwards, and divides for avg the way NCCL does. */
    private static double reduceInType(final DType t, final ReduceOp op, final int w, final long i,
                                       final boolean backwards) {
        double acc = Double.NaN;
        for (int k = 0; k < w; k++) {
            final int r = backwards ? w - 1 - k : k;
            final double x = store(t, Pattern.input(op, t, w, r, i, 3));
            acc = k == 0 ? x : step(t, op, acc, x);
        }
        if (op == ReduceOp.AVG) {
            return t.floating() ? store(t, acc / w) : (long) acc / w;
        }
        return acc;
    }

    @Test
    void resultsAreExactInEveryOrderAndType() {
        for (final DType t : DType.values()) {
            for (final ReduceOp op : ReduceOp.values()) {
                for (final int w : new int[] {1, 2, 3, 4, 7, 64, 65, 130}) {
                    for (long i = 0; i < 40; i++) {
                        final double want = Pattern.reduced(op, t, w, i, 3);
                        final double tol = Pattern.tolerance(op, t, w, want);
                        for (final boolean back : new boolean[] {false, true}) {
                            final double got = reduceInType(t, op, w, i, back);
                            assertThat(Math.abs(got - want)).as("%s %s w=%d i=%d", t, op, w, i)
                                .isLessThanOrEqualTo(tol);
                        }
                        assertThat(store(t, want)).as("%s %s w=%d representable", t, op, w).isEqualTo(want);
                    }
                }
            }
        }
    }

    @Test
    void onlyFloatingAverageHasATolerance() {
        assertThat(Pattern.tolerance(ReduceOp.SUM, DType.BFLOAT16, 4, 100)).isZero();
        assertThat(Pattern.tolerance(ReduceOp.AVG, DType.INT32, 4, 100)).isZero();
        assertThat(Pattern.tolerance(ReduceOp.AVG, DType.FLOAT32, 4, 2)).isEqualTo(6 * 2 * Math.scalb(1.0, -23));
    }

    @Test
    void int8SumsWrapAndDataFitsEveryType() {
        // 64 ranks: sum of window values can pass 127
        boolean wrapped = false;
        for (long i = 0; i < 3; i++) {
            final double s = Pattern.reduced(ReduceOp.SUM, DType.INT8, 64, i, 0);
            wrapped |= s < 0;
            assertThat(s).isBetween(-128.0, 127.0);
        }
        assertThat(wrapped).isTrue();
        for (int r = 0; r < 5; r++) {
            assertThat(Pattern.data(r, 1234, 9)).isBetween(0.0, 100.0);
        }
    }
}
