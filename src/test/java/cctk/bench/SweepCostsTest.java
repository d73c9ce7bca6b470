package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SweepCostsTest {

    @Test
    void theSweepsTimeOutsideItsLoopsIsSplitPerPointAndTheRestIsWhatNoPartExplains() {
        final long ms = 1_000_000L;
        // a sweep of 1,000 ms over 10 points: 400 ms in 12 timed loops, 100 ms of warm-up calls, 50 ms of waits for
        // compilers, 250 ms of fill and check: 60 ms a point outside the loops, 10 of it, per point, the rest
        final Map<String, Object> m = SweepCosts.of(0, 0, 1_000 * ms, 0.5,
            new SweepCosts.Inside(400 * ms, 12, 100 * ms, 50 * ms, 250 * ms), 10);
        assertThat(m.get("timed_loops")).isEqualTo(12L);
        assertThat(((Number) m.get("overhead_per_point_ms")).doubleValue()).isEqualTo(60.0);
        @SuppressWarnings("unchecked")
        final Map<String, Object> split = (Map<String, Object>) m.get("overhead_per_point_split_ms");
        assertThat(split).containsOnlyKeys("warm_up_calls", "compiler_waits", "fill_check", "rest");
        assertThat(((Number) split.get("warm_up_calls")).doubleValue()).isEqualTo(10.0);
        assertThat(((Number) split.get("compiler_waits")).doubleValue()).isEqualTo(5.0);
        assertThat(((Number) split.get("fill_check")).doubleValue()).isEqualTo(25.0);
        assertThat(((Number) split.get("rest")).doubleValue()).isEqualTo(20.0);
        assertThat((String) m.get("summary")).contains("other work 60.0 ms per point (warm-up calls 10.0, waits for"
            + " compilers 5.0, fill and check 25.0, the rest 20.0)");
    }
}
