package cctk.diagnose.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class TournamentTest {

    @Test
    void everyPairMeetsExactlyOnceAndNoNodeIsTwiceInARound() {
        for (int n = 1; n <= 41; n++) {
            final Tournament t = new Tournament(n);
            assertThat(t.rounds()).isEqualTo(n == 1 ? 0 : n % 2 == 0 ? n - 1 : n);
            final int[] met = new int[(int) Tournament.pairCount(n)];
            for (int r = 0; r < t.rounds(); r++) {
                final boolean[] busy = new boolean[n];
                final int[] pairs = t.pairs(r);
                assertThat(pairs).hasSize(2 * (n / 2));
                for (int k = 0; k < pairs.length; k += 2) {
                    final int a = pairs[k];
                    final int b = pairs[k + 1];
                    assertThat(busy[a] || busy[b]).as("n=%d round %d: %d-%d", n, r, a, b).isFalse();
                    busy[a] = true;
                    busy[b] = true;
                    assertThat(t.partner(b, r)).isEqualTo(a);
                    met[Tournament.pairIndex(n, a, b)]++;
                }
                int byes = 0;
                for (int x = 0; x < n; x++) {
                    byes += t.partner(x, r) == Tournament.BYE ? 1 : 0;
                }
                assertThat(byes).isEqualTo(n % 2);
            }
            assertThat(met).as("n=%d", n).containsOnly(n == 1 ? new int[0] : new int[] {1});
        }
    }

    @Test
    void pairIndicesAreDenseAndOrdered() {
        final int n = 7;
        int expected = 0;
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                assertThat(Tournament.pairIndex(n, a, b)).isEqualTo(expected);
                assertThat(Tournament.pairIndex(n, b, a)).isEqualTo(expected);
                assertThat(Attribution.pairOf(n, expected)).containsExactly(a, b);
                expected++;
            }
        }
        assertThat(expected).isEqualTo(Tournament.pairCount(n));
        assertThatThrownBy(() -> Tournament.pairIndex(n, 3, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Tournament(4).partner(0, 3)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void mediansSkipWhatWasNotMeasured() {
        assertThat(Medians.of(new double[] {5, 1, Double.NaN, 3})).isEqualTo(3);
        assertThat(Medians.of(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
        assertThat(Medians.of(new double[] {Double.NaN})).isNaN();
        assertThat(Medians.of(new double[] {2, 2, 2, 1, 2, 9})).isEqualTo(2);
        final java.util.Random rnd = new java.util.Random(7);
        for (int trial = 0; trial < 200; trial++) {
            final double[] v = new double[1 + rnd.nextInt(40)];
            for (int i = 0; i < v.length; i++) {
                v[i] = rnd.nextInt(10);
            }
            final double[] sorted = v.clone();
            java.util.Arrays.sort(sorted);
            final int m = sorted.length;
            final double want = m % 2 == 1 ? sorted[m / 2] : (sorted[m / 2 - 1] + sorted[m / 2]) / 2;
            assertThat(Medians.of(v)).as(java.util.Arrays.toString(v)).isEqualTo(want);
        }
    }
}
