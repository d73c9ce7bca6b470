package cctk.coll;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.comm.DType;
import cctk.comm.ReduceOp;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ExactValuesTest {

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
            final double x = store(t, ExactValues.input(op, t, w, r, i, 3));
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
                    for (long i = 0; i < 100; i++) {
                        final double want = ExactValues.reduced(op, t, w, i, 3);
                        final double tol = ExactValues.tolerance(op, t, w, want);
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
        assertThat(ExactValues.tolerance(ReduceOp.SUM, DType.BFLOAT16, 4, 100)).isZero();
        assertThat(ExactValues.tolerance(ReduceOp.AVG, DType.INT32, 4, 100)).isZero();
        assertThat(ExactValues.tolerance(ReduceOp.AVG, DType.FLOAT32, 4, 2)).isEqualTo(6 * 2 * Math.scalb(1.0, -23));
    }

    @Test
    void int8SumsWrapAndDataFitsEveryType() {
        // 64 ranks: the sum of the window can pass 127
        boolean wrapped = false;
        for (long u = 0; u < 40; u++) {
            final double s = ExactValues.reduced(ReduceOp.SUM, DType.INT8, 64, u, 0);
            wrapped |= s < 0;
            assertThat(s).isBetween(-128.0, 127.0);
        }
        assertThat(wrapped).isTrue();
        for (long u = 0; u < 1000; u++) {
            assertThat(ExactValues.data(u, 9)).isBetween(0.0, 100.0);
        }
    }

    @Test
    void inputsAndResultsStayWithinTheirBoundsAtEveryPhase() {
        for (final int w : new int[] {1, 2, 3, 64, 65, 1000}) {
            final int m = Math.min(w, ExactValues.SUM_WINDOW);
            for (long u = 0; u < 3000; u++) {
                final double sum = ExactValues.reduced(ReduceOp.SUM, DType.INT64, w, u, 5);
                assertThat(sum).as("w=%d u=%d", w, u).isBetween((double) m, (double) ExactValues.SUM_LIMIT);
                long contributors = 0;
                double added = 0;
                for (int r = 0; r < w; r++) {
                    final double x = ExactValues.input(ReduceOp.SUM, DType.INT64, w, r, u, 5);
                    contributors += x > 0 ? 1 : 0;
                    added += x;
                }
                // every rank of the window adds at least 1: a dropped or doubled rank changes the sum
                assertThat(contributors).isEqualTo(m);
                assertThat(added).isEqualTo(sum);
                final double prod = ExactValues.reduced(ReduceOp.PROD, DType.INT64, w, u, 5);
                assertThat(prod).isBetween(1.0, 127.0 * 256);
                assertThat(ExactValues.reduced(ReduceOp.MAX, DType.INT8, w, u, 5)).isBetween(-32.0, 94.0);
                assertThat(ExactValues.reduced(ReduceOp.MIN, DType.UINT8, w, u, 5)).isBetween(0.0, 63.0);
                assertThat(ExactValues.reduced(ReduceOp.MAX, DType.UINT8, w, u, 5)).isBetween(0.0, 126.0);
            }
        }
    }

    @Test
    void noEightBitResultIsThePoisonByte() {
        // BufferData poisons with 0xA5: 165 as uint8, -91 as int8; a call that writes nothing must be wrong everywhere
        for (final DType t : new DType[] {DType.INT8, DType.UINT8}) {
            final double poison = t == DType.INT8 ? -91 : 165;
            for (final ReduceOp op : ReduceOp.values()) {
                for (final int w : new int[] {1, 2, 3, 4, 64, 130}) {
                    for (long u = 0; u < 2000; u++) {
                        assertThat(ExactValues.reduced(op, t, w, u, 1)).as("%s %s w=%d u=%d", t, op, w, u)
                            .isNotEqualTo(poison);
                    }
                }
            }
        }
    }

    /** The longest run of phases over which {@code v} equals itself rotated by some e in 1..P-1. */
    static int longestAgreementWithARotation(final double[] v) {
        final int p = v.length;
        int best = 0;
        for (int e = 1; e < p; e++) {
            int run = 0;
            for (int i = 0; i < 2 * p && best < p; i++) {
                run = v[i % p] == v[(i + e) % p] ? run + 1 : 0;
                best = Math.max(best, Math.min(run, p));
            }
        }
        return best;
    }

    @Test
    void valuesAgreeWithTheirOwnRotationsOnlyOverShortRuns() {
        // what catches a block shifted by a few elements, or a piece of a tile (Period): a misplaced run of
        // this many elements or more is always wrong somewhere
        final int p = Period.nextPrime(1000);
        final double[] v = new double[p];
        for (int u = 0; u < p; u++) {
            v[u] = ExactValues.data(u, 1);
        }
        assertThat(longestAgreementWithARotation(v)).as("data").isLessThanOrEqualTo(4);
        for (final DType t : new DType[] {DType.FLOAT32, DType.BFLOAT16, DType.INT8, DType.UINT8}) {
            for (final ReduceOp op : ReduceOp.values()) {
                // integer avg of many ranks carries little: its results are a few small quotients
                final int maxWorld = op == ReduceOp.AVG && !t.floating() ? 8 : 130;
                for (final int w : new int[] {1, 2, 3, 4, 8, 64, 130}) {
                    if (w > maxWorld) {
                        continue;
                    }
                    for (int u = 0; u < p; u++) {
                        v[u] = ExactValues.reduced(op, t, w, u, 1);
                    }
                    assertThat(longestAgreementWithARotation(v)).as("%s %s w=%d", t, op, w).isLessThanOrEqualTo(6);
                }
            }
        }
    }
}
