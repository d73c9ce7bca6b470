package cctk.coll;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class PeriodTest {

    private static boolean prime(final int n) {
        for (int f = 2; (long) f * f <= n; f++) {
            if (n % f == 0) {
                return false;
            }
        }
        return n > 1;
    }

    @Test
    void thePeriodIsAPrimeAboveTheWorldAndTheMinimum() {
        for (final int w : new int[] {1, 2, 3, 4, 60, 61, 100, 8191}) {
            for (final long count : new long[] {0, 1, 4, 1000, 1 << 20, 1L << 28}) {
                final Period p = Period.of(w, w, count);
                assertThat(prime(p.length())).as("w=%d count=%d P=%d", w, count, p.length()).isTrue();
                assertThat(p.length()).isGreaterThan(w).isGreaterThanOrEqualTo(Period.MIN);
                assertThat(p.tiles() * p.length()).isGreaterThanOrEqualTo(count);
            }
        }
        assertThat(Period.nextPrime(61)).isEqualTo(61);
        assertThat(Period.nextPrime(62)).isEqualTo(67);
    }

    @Test
    void everyTileOfEveryOriginHasItsOwnRotation() {
        // all_gather of 64 MiB float32 at W=8, alltoall at W=64, all_reduce of 1 GiB int8: rotations never repeat
        final long[][] cases = {{8, 8, 2 << 20}, {64, 64 * 64, 4096}, {2, 1, 1L << 30}, {3, 3, 999}};
        for (final long[] k : cases) {
            final Period p = Period.of((int) k[0], k[1], k[2]);
            assertThat(p.distinct(k[1])).as("w=%d origins=%d count=%d", k[0], k[1], k[2]).isTrue();
            assertThat(k[1] * p.tiles()).isLessThanOrEqualTo(p.length());
        }
        final Period p = Period.of(5, 5, 1000);
        final Set<Integer> seen = new HashSet<>();
        for (long origin = 0; origin < 5; origin++) {
            for (long t = 0; t < p.tiles(); t++) {
                assertThat(seen.add(p.rotation(origin, t))).as("origin %d tile %d", origin, t).isTrue();
            }
        }
    }

    @Test
    void aTileIsOneRotationOfThePeriod() {
        final Period p = Period.of(4, 4, 5000);
        final int len = p.length();
        for (final long k : new long[] {0, 1, len - 1, len, len + 3, 3L * len + 7}) {
            final long t = k / len;
            assertThat(p.phase(2, k)).isEqualTo((int) ((k % len + p.rotation(2, t)) % len));
        }
        // consecutive tiles of a block are rotated one step further each
        assertThat(p.rotation(1, 1)).isEqualTo((p.rotation(1, 0) + 1) % len);
    }

    @Test
    void thousandsOfRanksCapThePeriodAndRotationsThenRepeat() {
        final Period p = Period.of(8192, 8192L * 8192, 4096);
        assertThat(p.length()).isEqualTo(65537);
        assertThat(p.distinct(8192L * 8192)).isFalse();
        assertThat(Period.of(100_000, 100_000, 1).length()).isGreaterThan(100_000);
    }
}
