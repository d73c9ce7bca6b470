package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.results.ResultSet;
import cctk.results.Run;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A run's parameters name sizes the way they were asked: as element counts when the spec gave counts. */
@Timeout(10)
class ParametersTest {

    private static Run run(final Object sizes) {
        return new Run("/r/profile_tcp_world2_1.json", "0.1.0", null, null, null, "tcp", 2, null, List.of(),
            List.of(), Map.of(), Map.of("sizes", sizes, "iters", 20L), List.of(), "OK", null);
    }

    /**
     * Issue 26 item 1: the seeds ask for 1M, 4M and 16M elements; the report's parameters say so (before: the
     * element counts appeared nowhere but on the plots' size axis).
     */
    @Test
    void elementCountsAreNamedAsAsked() {
        final ResultSet none = new ResultSet(List.of(), List.of());
        assertThat(Parameters.of(none, run(List.of("1000000 elements", "4000000 elements", "16000000 elements"))))
            .startsWith("sizes asked as element counts: 1M, 4M, 16M elements, iterations 20");
        assertThat(Parameters.of(none, run(List.of("1024 B", "1048576 B")))).isEqualTo("iterations 20");
        assertThat(Parameters.of(none, run(List.of("1000000 elements", "1024 B")))).isEqualTo("iterations 20");
    }
}
