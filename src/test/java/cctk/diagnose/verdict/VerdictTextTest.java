package cctk.diagnose.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The verdict for people: every reference a suspect line cites is the figure the header prints under the same
 * name, a confirmed suspect says what to do next, and a suspect left unconfirmed says why.
 */
class VerdictTextTest {

    private static final DiagnosisFiles.Header HEADER = new DiagnosisFiles.Header("unit",
            LocalDateTime.of(2026, 1, 2, 3, 4, 5), 1 << 20, 0.8, true, 1.0, List.of("eth0", "eth1"));

    /** The verdict's lines after repeats at {@code again} x the clean figure for every recheck. */
    private static List<String> lines(final Figures f, final double again) {
        final Findings found = Judge.tentative(f, 0.8);
        for (final Recheck r : found.allRechecks()) {
            for (int op = 0; op < Figures.PAIR_OPS.size(); op++) {
                f.repeat(Figures.test(r.mode(), op), r.a(), r.b(), again);
            }
        }
        return VerdictText.lines(HEADER, f, found, Judge.ordered(Judge.confirm(found, f, 0.8, true)));
    }

    /** The figure of {@code test} in the header line that starts with {@code header}. */
    private static String cited(final List<String> lines, final String header, final String test) {
        final String line = lines.stream().filter(l -> l.startsWith(header)).findFirst().orElseThrow();
        final Matcher m = Pattern.compile("[:|] " + test + " ([0-9.]+)").matcher(line);
        assertThat(m.find()).as("%s in %s", test, line).isTrue();
        return m.group(1);
    }

    @Test
    void aNodeSuspectCitesTheHeadersPeersMedianAndSaysWhatToDoNext() {
        final Figures f = JudgeTest.figures(4, List.of("eth0", "eth1"), (m, a, b) -> a == 2 || b == 2 ? 0.1 : 1);
        final List<String> lines = lines(f, 0.1);
        final String suspect = lines.stream().filter(l -> l.startsWith("SUSPECT node node3:")).findFirst()
                .orElseThrow();
        final Matcher m = Pattern.compile(": ([a-z0-9]+ [a-z_]+) [0-9.]+ GB/s, peers' median ([0-9.]+) GB/s")
                .matcher(suspect);
        assertThat(m.find()).as(suspect).isTrue();
        assertThat(m.group(2)).isEqualTo(cited(lines, "# peers' median busbw", m.group(1)));
        assertThat(lines).contains("    next: drain node3 and check its host side (PCIe, NUMA placement, CPU"
                + " frequency, the driver): it is slow on every NIC");
        assertThat(lines).noneMatch(l -> l.startsWith("# pairs' median"));
    }

    @Test
    void aPairSuspectCitesThePairsMedianOfItsOwnHeaderLine() {
        final Figures f = JudgeTest.figures(6, List.of("eth0", "eth1"),
                (mode, a, b) -> a == 0 && b == 3 && mode.equals("eth0") ? 0.3 : 1);
        final List<String> lines = lines(f, 0.3);
        final String suspect = lines.stream().filter(l -> l.startsWith("SUSPECT pair node1-node4 eth0:")).findFirst()
                .orElseThrow();
        final Matcher m = Pattern.compile(": (eth0 [a-z_]+) [0-9.]+ GB/s, pairs' median ([0-9.]+) GB/s")
                .matcher(suspect);
        assertThat(m.find()).as(suspect).isTrue();
        assertThat(m.group(2)).isEqualTo(cited(lines, "# pairs' median busbw", m.group(1)));
        assertThat(lines).anyMatch(l -> l.startsWith("    next: check the route between node1 and node4 on eth0"));
    }

    @Test
    void aNicSuspectHealedOnItsRepeatIsNotConfirmedAndHasNoNextStep() {
        final Figures f = JudgeTest.figures(4, List.of("eth0", "eth1"), (mode, a, b) -> (a == 1 || b == 1)
                && (mode.equals("eth1") || mode.equals(Figures.STRIPED)) ? 0.05 : 1);
        final List<String> healed = lines(f, 1.0);
        assertThat(healed).anyMatch(l -> l.startsWith("not confirmed: node+NIC node2 eth1:"))
                .noneMatch(l -> l.startsWith("    next:")).contains("verdict: no suspect: healthy within this run's"
                + " sensitivity (a node at 0.80x its peers' median or below on a NIC would be named)");
        final List<String> slow = lines(JudgeTest.figures(4, List.of("eth0", "eth1"), (mode, a, b) -> (a == 1
                || b == 1) && (mode.equals("eth1") || mode.equals(Figures.STRIPED)) ? 0.05 : 1), 0.05);
        assertThat(slow).contains("    next: check the cable, the switch port and the link speed of eth1 on node2"
                + " (e.g. ethtool eth1, ibstat), then rerun cctk diagnose");
    }

    @Test
    void withoutASuspectTheVerdictSaysWhetherTheRunCouldTell() {
        final Figures clean = JudgeTest.figures(4, List.of("eth0", "eth1"), (m, a, b) -> 1);
        final Sensitivity quiet = Sensitivity.of(clean, Judge.tentative(clean, 0.8), 0.8);
        assertThat(quiet.conclusive()).isTrue();
        assertThat(quiet.ratio()).isEqualTo(0.8, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(quiet.status(List.of())).isEqualTo("OK");

        final Figures two = JudgeTest.figures(2, List.of("eth0", "eth1"), (m, a, b) -> 1);
        final List<String> twoLines = lines(two, 1.0);
        assertThat(twoLines.get(twoLines.size() - 1)).startsWith("verdict: no suspect, but inconclusive: 2 nodes:"
                + " too few to tell a slow node from its peers");
        assertThat(Sensitivity.of(two, Judge.tentative(two, 0.8), 0.8).status(List.of())).isEqualTo("INCONCLUSIVE");

        // every node's pairs at its own speed, 0.3x to 1.7x: the scatter hides what the threshold would find
        final double[] speed = {1.0, 0.3, 1.7, 0.5, 1.5, 0.8};
        final Figures noisy = JudgeTest.figures(6, List.of("eth0", "eth1"), (m, a, b) -> Math.sqrt(speed[a] * speed[b]));
        final Sensitivity loud = Sensitivity.of(noisy, Judge.tentative(noisy, 0.8), 0.8);
        assertThat(loud.conclusive()).as("ratio %s", loud.ratio()).isFalse();
        assertThat(loud.why()).startsWith("too noisy: the nodes' figures scatter so much that only a node below");
    }

    @Test
    void aNodeBelowTheThresholdButInsideTheScatterMakesTheRunInconclusiveNeverHealthy() {
        // node2's eth0 at 0.7x (a link near half speed on a loaded machine), its peers scattered 0.75x-1.3x
        final double[] speed = {1.0, 1.0, 1.3, 0.75, 1.2, 0.9};
        final Figures f = JudgeTest.figures(6, List.of("eth0", "eth1"), (m, a, b) -> Math.sqrt(speed[a] * speed[b])
                * ((a == 1 || b == 1) && (m.equals("eth0") || m.equals(Figures.STRIPED)) ? 0.7 : 1));
        final Findings found = Judge.tentative(f, 0.8);
        assertThat(found.suspects()).as("inside the scatter: not named").isEmpty();
        assertThat(found.sensitivity().conclusive()).isFalse();
        assertThat(found.sensitivity().status(List.of())).isEqualTo("INCONCLUSIVE");
        assertThat(found.sensitivity().why()).startsWith("node2 on eth0 at 0.").contains("cannot tell whether it is slow");
        final List<String> out = lines(f, 1.0);
        assertThat(out.get(out.size() - 1)).startsWith("verdict: no suspect, but inconclusive: node2 on eth0 at");
        // one operation only, but every pair of node2 slow on it: inconclusive as well
        final Figures one = JudgeTest.figures(6, List.of("eth0", "eth1"), (m, a, b) -> Math.sqrt(speed[a] * speed[b]));
        final int sendrecv = Figures.test(0, 0);
        for (int b = 0; b < 6; b++) {
            if (b != 1) {
                one.pair(sendrecv, Math.min(1, b), Math.max(1, b), 0.5 * one.pair(sendrecv, Math.min(1, b),
                        Math.max(1, b)));
            }
        }
        final Findings oneFound = Judge.tentative(one, 0.8);
        assertThat(oneFound.suspects()).isEmpty();
        assertThat(oneFound.sensitivity().why()).startsWith("node2 on eth0 at 0.");
        // the same cluster without the slow link can say healthy
        final Figures clean = JudgeTest.figures(6, List.of("eth0", "eth1"), (m, a, b) -> Math.sqrt(speed[a]
                * speed[b]));
        assertThat(Judge.tentative(clean, 0.8).sensitivity().conclusive()).isTrue();
    }
}
