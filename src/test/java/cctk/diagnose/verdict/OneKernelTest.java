package cctk.diagnose.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Nodes that share one kernel (network namespaces of one machine) have one machine's inside, measured in turns at
 * different moments: a node slow inside in both passes there is that machine's load, not a node's fault, so it is
 * not judged (the four-node test cluster confirmed a healthy node1 "slow inside" at 0.63x and 0.72x); on separate
 * kernels the same figures name the node.
 */
@Timeout(30)
class OneKernelTest {

    private static Figures slowInsideTwice(final boolean oneKernel) {
        final Figures f = JudgeTest.figures(4, List.of("eth0", "eth1"), (m, a, b) -> 1);
        f.oneKernel(oneKernel);
        for (int p = 0; p < Figures.PASSES; p++) {
            for (int i = 0; i < 4; i++) {
                f.intra(p, i, i == 0 ? 0.3 : 1.0);
            }
        }
        return f;
    }

    @Test
    void onSeparateKernelsANodeSlowInsideTwiceIsNamed() {
        final Figures f = slowInsideTwice(false);
        final Findings found = Judge.tentative(f, 0.8);
        assertThat(Judge.confirm(found, f, 0.8, true)).anyMatch(s -> s.confirmed() && s.node() == 0
            && Judge.INTRA.equals(s.where()));
    }

    @Test
    void onOneKernelTheInsidesAreNotJudgedAndTheHeaderSaysSo() {
        final Figures f = slowInsideTwice(true);
        final Findings found = Judge.tentative(f, 0.8);
        assertThat(found.suspects()).noneMatch(s -> Judge.INTRA.equals(s.where()));
        final List<Suspect> verdict = Judge.confirm(found, f, 0.8, true);
        final List<String> out = VerdictText.lines(new DiagnosisFiles.Header("unit", LocalDateTime.of(2026, 11, 27,
            19, 0), 1 << 20, 0.8, true, 1.0, List.of("eth0", "eth1")), f, found, verdict);
        assertThat(out).anyMatch(l -> l.contains("intra-node all_reduce 1.00 (not judged: the nodes share one"
            + " kernel)"));
        assertThat(out.get(out.size() - 1)).startsWith("verdict: no suspect");
    }
}
