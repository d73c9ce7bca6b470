package cctk.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Admission that a flood cannot win: beyond the cap the oldest connection still proving itself gives way. */
class HandshakingTest {

    @Test
    void underTheCapNobodyGivesWayAndBeyondItTheOldestStillProvingDoes() {
        final Set<Integer> proving = new HashSet<>();
        final Handshaking<Integer> h = new Handshaking<>(3, proving::contains);
        for (int c = 1; c <= 3; c++) {
            proving.add(c);
            assertThat(h.admit(c, proving.size() - 1)).isNull();
        }
        proving.remove(1); // joined: no longer the one to evict
        proving.add(4);
        assertThat(h.admit(4, 2)).as("2 proving before: under the cap").isNull();
        proving.add(5);
        assertThat(h.admit(5, 3)).as("at the cap: the oldest still proving, not the one that joined").isEqualTo(2);
        proving.remove(2);
        proving.add(6);
        assertThat(h.admit(6, 3)).isEqualTo(3);
    }
}
