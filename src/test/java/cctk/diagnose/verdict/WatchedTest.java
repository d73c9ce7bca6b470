package cctk.diagnose.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A node below the threshold on one operation of a mode only (a link at half speed on a loaded cluster: slow on
 * sendrecv, inside the scatter on all_reduce) is never a suspect and was once called healthy; it is now measured
 * again, and below the threshold twice makes the run inconclusive.
 */
@Timeout(30)
class WatchedTest {

    private static final double THRESHOLD = 0.8;

    /** Four nodes, node2 (index 1) at 0.7x on eth0 sendrecv with node1 and node3, at full speed with node4. */
    private static Figures halfSpeedOnOneOperation() {
        final Figures f = JudgeTest.figures(4, List.of("eth0", "eth1"), (m, a, b) -> 1);
        final int sendrecv = Figures.test(0, 0);
        for (final int peer : new int[] {0, 2}) {
            final int a = Math.min(1, peer);
            final int b = Math.max(1, peer);
            f.pair(sendrecv, a, b, 0.7 * f.pair(sendrecv, a, b));
        }
        return f;
    }

    private static Findings repeated(final Figures f, final double sendrecvAgain) {
        final Findings found = Judge.tentative(f, THRESHOLD);
        for (final Recheck r : found.allRechecks()) {
            for (int op = 0; op < Figures.PAIR_OPS.size(); op++) {
                f.repeat(Figures.test(r.mode(), op), r.a(), r.b(), r.mode() == 0 && op == 0 ? sendrecvAgain : 1.0);
            }
        }
        return Judge.afterRepeat(found, f, THRESHOLD, true, Judge.confirm(found, f, THRESHOLD, true));
    }

    @Test
    void belowTheThresholdOnOneOperationTwiceIsInconclusiveNeverHealthy() {
        final Figures f = halfSpeedOnOneOperation();
        final Findings first = Judge.tentative(f, THRESHOLD);
        assertThat(first.suspects()).as("slow on sendrecv only: not a suspect").isEmpty();
        assertThat(first.sensitivity().conclusive()).as("the first look alone said healthy").isTrue();
        assertThat(first.watched()).extracting(Watched::node, Watched::mode).containsExactly(
            org.assertj.core.groups.Tuple.tuple(1, 0));
        assertThat(first.allRechecks()).isNotEmpty().allMatch(r -> (r.a() == 1 || r.b() == 1) && r.mode() == 0);

        final Findings after = repeated(f, 0.65);
        assertThat(after.sensitivity().status(List.of())).isEqualTo("INCONCLUSIVE");
        assertThat(after.sensitivity().why()).startsWith("node2 on eth0 read 0.7").contains(" on sendrecv and 0.6")
            .contains("again on repeat: below the threshold (0.8 x the peers' median) twice");
        final DiagnosisFiles.Header header = new DiagnosisFiles.Header("unit", LocalDateTime.of(2026, 11, 27, 18, 0),
            1 << 20, THRESHOLD, true, 1.0, List.of("eth0", "eth1"));
        final List<String> out = VerdictText.lines(header, f, after, Judge.ordered(Judge.confirm(after, f, THRESHOLD,
            true)));
        assertThat(out.get(out.size() - 1)).startsWith("verdict: no suspect, but inconclusive: node2 on eth0 read");
    }

    @Test
    void aRepeatAtFullSpeedLeavesTheRunHealthy() {
        final Figures f = halfSpeedOnOneOperation();
        assertThat(repeated(f, 1.0).sensitivity().conclusive()).isTrue();
    }

    @Test
    void withoutRepeatsTheFirstLookStandsAndACleanClusterWatchesNobody() {
        final Figures f = halfSpeedOnOneOperation();
        final Findings first = Judge.tentative(f, THRESHOLD);
        assertThat(Judge.afterRepeat(first, f, THRESHOLD, false, List.of())).isSameAs(first);
        final Figures clean = JudgeTest.figures(4, List.of("eth0", "eth1"), (m, a, b) -> 1);
        final Findings none = Judge.tentative(clean, THRESHOLD);
        assertThat(none.watched()).isEmpty();
        assertThat(none.allRechecks()).isEmpty();
    }

    @Test
    void aFirstLookSuspectBelowItsPeersAgainOnEveryOperationIsNotCalledHealthy() {
        // node2's eth0 at 0.6x on both operations at first look (a node+NIC suspect); on repeat 0.85x: above the
        // threshold, so not confirmed, yet below its peers on every operation (DiagnoseIT saw 0.85x and 0.82x)
        final Figures f = JudgeTest.figures(4, List.of("eth0", "eth1"), (m, a, b) -> (a == 1 || b == 1)
            && (m.equals("eth0") || m.equals(Figures.STRIPED)) ? 0.6 : 1);
        final Findings found = Judge.tentative(f, THRESHOLD);
        assertThat(found.suspects()).extracting(s -> s.kind().label() + " " + s.subject(f.nodes()))
            .contains("node+NIC node2 eth0");
        for (final double again : new double[] {0.85, 1.0}) {
            for (final Recheck r : found.allRechecks()) {
                for (int op = 0; op < Figures.PAIR_OPS.size(); op++) {
                    f.repeat(Figures.test(r.mode(), op), r.a(), r.b(), r.a() == 1 || r.b() == 1 ? again : 1.0);
                }
            }
            final java.util.List<Suspect> verdict = Judge.confirm(found, f, THRESHOLD, true);
            assertThat(verdict).noneMatch(Suspect::confirmed);
            final Sensitivity after = Judge.afterRepeat(found, f, THRESHOLD, true, verdict).sensitivity();
            if (again < 1) {
                assertThat(after.status(verdict)).isEqualTo("INCONCLUSIVE");
                assertThat(after.why()).startsWith("node+NIC node2 eth0 was slow at first look (0.6")
                    .contains("and below its peers' median again on repeat (0.8");
            } else {
                assertThat(after.status(verdict)).as("back at its peers: noise, healthy").isEqualTo("OK");
            }
        }
    }
}
