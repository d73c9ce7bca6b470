package cctk.diagnose.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The judgement on four nodes, one task per node, NICs eth0 and eth1 (+ striped), with healthy pairs that scatter
 * (drawn per measurement: up to 2x, 0.7x to 1.4x, where a whole node is slow), over many draws: a whole slow node, a
 * half-speed link and a CPU-starved rank, each first look and each verdict after repeats drawn from the same cluster.
 */
@Timeout(60)
class SlowNodeJudgeTest {

    private static final List<String> NICS = List.of("eth0", "eth1");
    private static final int DRAWS = 40;

    /** How much slower one measurement of a pair is on a mode than a healthy one. */
    interface Cluster {
        double factor(String mode, int a, int b, Random rnd);
    }

    /** {@link #judge(Cluster, long, double, double)} with healthy pairs at 0.7x to 1.4x. */
    private static Verdict judge(final Cluster c, final long seed) {
        return judge(c, seed, 0.7, 1.4);
    }

    /** Every pair on every test, then every recheck the first look asks for, drawn from {@code c}. */
    private static Verdict judge(final Cluster c, final long seed, final double low, final double high) {
        final Random rnd = new Random(seed);
        final Figures f = new Figures(JudgeTest.names(4), Figures.modesOf(NICS));
        for (int t = 0; t < f.tests(); t++) {
            for (int a = 0; a < 4; a++) {
                for (int b = a + 1; b < 4; b++) {
                    f.pair(t, a, b, healthy(rnd, low, high) * c.factor(f.modes().get(Figures.modeOf(t)), a, b, rnd));
                }
            }
        }
        final Findings found = Judge.tentative(f, 0.8);
        for (final Recheck r : found.allRechecks()) {
            for (int op = 0; op < Figures.PAIR_OPS.size(); op++) {
                f.repeat(Figures.test(r.mode(), op), r.a(), r.b(), healthy(rnd, low, high)
                        * c.factor(f.modes().get(r.mode()), r.a(), r.b(), rnd));
            }
        }
        final List<Suspect> verdict = Judge.ordered(Judge.confirm(found, f, 0.8, true));
        return new Verdict(f, found, verdict, Sensitivity.of(f, found, 0.8).status(verdict));
    }

    private record Verdict(Figures f, Findings found, List<Suspect> verdict, String status) {
        List<String> first() {
            return found.suspects().stream().map(s -> s.kind().label() + " " + s.subject(f.nodes())).toList();
        }

        List<String> confirmed() {
            return verdict.stream().filter(Suspect::confirmed).map(s -> s.kind().label() + " " + s.subject(f.nodes()))
                    .toList();
        }
    }

    private static double healthy(final Random rnd, final double low, final double high) {
        return low + (high - low) * rnd.nextDouble();
    }

    private static boolean touches(final int node, final int a, final int b) {
        return a == node || b == node;
    }

    /** Node {@code node} at 0.2x to 0.4x on every measurement; pair node2-node4 at 0.3x once, on eth0 sendrecv. */
    private static Cluster slowNode(final int node, final boolean blip) {
        final int[] once = {blip ? 1 : 0};
        return (mode, a, b, rnd) -> {
            if (touches(node, a, b)) {
                return 0.2 + 0.2 * rnd.nextDouble();
            }
            if (a == 1 && b == 3 && mode.equals("eth0") && once[0]-- > 0) {
                return 0.3;
            }
            return 1;
        };
    }

    @Test
    void aWholeSlowNodeIsThatNodeAloneWhicheverNodeItIs() {
        for (final int node : new int[] {2, 0}) {
            for (int seed = 0; seed < DRAWS; seed++) {
                for (final boolean blip : new boolean[] {false, true}) {
                    final Verdict v = judge(slowNode(node, blip), seed);
                    final String who = "node node" + (node + 1);
                    // a healthy pair may look slow at first (two measurements, 2x scatter): its repeat clears it
                    assertThat(v.found().suspects()).as("node%d seed %d transient pair %s", node + 1, seed, blip)
                            .filteredOn(s -> s.kind() != Suspect.Kind.PAIR).singleElement().satisfies(s -> {
                                assertThat(s.subject(v.f().nodes())).isEqualTo("node" + (node + 1));
                                assertThat(s.kind()).isEqualTo(Suspect.Kind.NODE);
                                assertThat(s.where()).isEqualTo(Judge.ALL_NICS);
                            });
                    assertThat(v.confirmed()).as("seed %d", seed).containsExactly(who);
                    assertThat(v.status()).isEqualTo("SUSPECT");
                }
            }
        }
    }

    @Test
    void theReferenceOfAWholeSlowNodeIsItsHealthyPeersNotDraggedDown() {
        final Verdict v = judge(slowNode(2, false), 7);
        for (int t = 0; t < v.f().tests(); t++) {
            assertThat(v.found().nodeReference()[t]).as(v.f().testName(t)).isBetween(0.7, 1.4);
            assertThat(v.found().nodeFigure()[t][2] / v.found().nodeReference()[t]).isLessThan(0.6);
        }
    }

    @Test
    void aHalfSpeedLinkIsThatNodesNicOrInconclusiveNeverHealthyNorAnotherNic() {
        for (final double speed : new double[] {0.35, 0.45, 0.55}) {
            for (int seed = 0; seed < DRAWS; seed++) {
                final Verdict v = judge((mode, a, b, rnd) -> !touches(1, a, b) || mode.equals("eth1") ? 1
                        : mode.equals("eth0") ? speed : (1 + speed) / 2, seed, 0.8, 1.2);
                assertThat(v.status()).as("%.2fx seed %d: %s", speed, seed, v.verdict()).isNotEqualTo("OK");
                if (v.status().equals("SUSPECT")) {
                    assertThat(v.confirmed()).as("%.2fx seed %d", speed, seed).containsExactly("node+NIC node2 eth0");
                }
                assertThat(v.first()).as("%.2fx seed %d", speed, seed).allMatch(s -> s.equals("node+NIC node2 eth0"));
                if (v.status().equals("INCONCLUSIVE")) {
                    assertThat(Sensitivity.of(v.f(), v.found(), 0.8).why()).startsWith("node2 eth0 is at 0.");
                }
            }
        }
    }

    @Test
    void aHalfSpeedLinkInsideA2xScatterIsInconclusiveAndSaysWhichNodeAndNic() {
        // this draw's 2x scatter hides the 0.55x link from the limit and the sign test: the run says it cannot tell
        final Verdict v = judge((mode, a, b, rnd) -> !touches(1, a, b) || mode.equals("eth1") ? 1
                : mode.equals("eth0") ? 0.55 : 0.775, 1, 0.65, 1.35);
        assertThat(v.confirmed()).isEmpty();
        assertThat(v.status()).isEqualTo("INCONCLUSIVE");
        assertThat(Sensitivity.of(v.f(), v.found(), 0.8).why()).matches("node2 eth0 is at 0\\.[0-7][0-9]x the median"
                + " of the pairs that do not touch it, below the threshold 0.8, yet inside its peers' scatter.*");
    }

    @Test
    void aHalfSpeedLinkOnQuietPeersIsFound() {
        final Verdict v = judge((mode, a, b, rnd) -> touches(1, a, b) && mode.equals("eth0") ? 0.5 : 1, 3, 0.95,
                1.05);
        assertThat(v.confirmed()).as("%s %s %s", v.first(), v.verdict(), v.status())
                .containsExactly("node+NIC node2 eth0");
    }

    @Test
    void aCpuStarvedRankIsNeverANic() {
        // one task per node, capped to a tenth of a core: every measurement it takes part in runs at what its quota
        // lets through at that moment, on every NIC alike
        for (int seed = 0; seed < DRAWS; seed++) {
            final Verdict v = judge((mode, a, b, rnd) -> touches(2, a, b) ? 0.1 + 0.5 * rnd.nextDouble() : 1, seed);
            assertThat(v.verdict()).as("seed %d", seed).noneMatch(s -> s.kind() == Suspect.Kind.NODE_NIC);
            assertThat(v.found().suspects()).noneMatch(s -> s.kind() == Suspect.Kind.NODE_NIC);
            assertThat(v.confirmed()).as("seed %d", seed).containsExactly("node node3");
        }
    }

    @Test
    void aStarvedLeaderThatLooksLikeOneSlowNicIsItsHostNotTheNic() {
        // two ranks per node; rank 4, node3's leader, starved: its pairs slow on eth1 (and striped) but hardly on
        // eth0, the node's own all-reduce slow in both passes and rank 4 late at it
        final Figures f = JudgeTest.figures(4, NICS, (mode, a, b) -> touches(2, a, b)
                ? (mode.equals("eth0") ? 0.9 : 0.2) : 1);
        starved(f, 4);
        final Findings found = Judge.tentative(f, 0.8);
        for (final Recheck r : found.allRechecks()) {
            for (int op = 0; op < Figures.PAIR_OPS.size(); op++) {
                f.repeat(Figures.test(r.mode(), op), r.a(), r.b(), f.modes().get(r.mode()).equals("eth0") ? 0.9 : 0.2);
            }
        }
        final List<Suspect> verdict = Judge.ordered(Judge.confirm(found, f, 0.8, true));
        assertThat(verdict).noneMatch(s -> s.kind() == Suspect.Kind.NODE_NIC);
        assertThat(verdict).anySatisfy(s -> {
            assertThat(s.kind()).isEqualTo(Suspect.Kind.NODE);
            assertThat(s.where()).isEqualTo(Judge.HOST);
            assertThat(s.node()).isEqualTo(2);
            assertThat(s.evidence()).extracting(Evidence::test).contains("eth1 sendrecv", "eth1 all_reduce");
        });
        assertThat(verdict).filteredOn(Suspect::confirmed)
                .extracting(s -> s.kind().label() + " " + s.subject(f.nodes()) + " " + s.where())
                .contains("node node3 host", "rank 4 on node3 arrival");
    }

    @Test
    void aSlowNicWhoseNodesInsideIsFineOnRepeatStaysTheNic() {
        final Figures f = JudgeTest.figures(4, NICS, (mode, a, b) -> touches(2, a, b) && !mode.equals("eth0")
                ? 0.05 : 1);
        starved(f, 4);
        for (int node = 0; node < 4; node++) {
            f.intra(1, node, 2.0);
        }
        for (final RankSkew[] passes : f.ranks().values()) {
            f.rank(1, new RankSkew(passes[0].rank(), passes[0].node(), 10, 0, 0, 500));
        }
        final Findings found = Judge.tentative(f, 0.8);
        for (final Recheck r : found.allRechecks()) {
            for (int op = 0; op < Figures.PAIR_OPS.size(); op++) {
                f.repeat(Figures.test(r.mode(), op), r.a(), r.b(), 0.05);
            }
        }
        assertThat(Judge.ordered(Judge.confirm(found, f, 0.8, true))).filteredOn(Suspect::confirmed)
                .extracting(s -> s.kind().label() + " " + s.subject(f.nodes())).containsExactly("node+NIC node3 eth1");
    }

    @Test
    void aStarvedRankThatIsNoLeaderIsTheRankAndTheNodesInsideNeverANic() {
        final Figures f = JudgeTest.figures(4, NICS, (mode, a, b) -> 1);
        starved(f, 5);
        final List<Suspect> verdict = Judge.confirm(Judge.tentative(f, 0.8), f, 0.8, true);
        assertThat(verdict).extracting(s -> s.kind().label() + " " + s.subject(f.nodes()) + " " + s.confirmed())
                .containsExactlyInAnyOrder("node node3 true", "rank 5 on node3 true");
    }

    /** Two ranks per node in both passes; node3's all-reduce at a tenth of the others', {@code late} arrives late. */
    private static void starved(final Figures f, final int late) {
        for (int p = 0; p < Figures.PASSES; p++) {
            for (int node = 0; node < 4; node++) {
                f.intra(p, node, node == 2 ? 0.2 : 2.0 + 0.05 * node);
                final int[] ranks = {2 * node, 2 * node + 1};
                final List<double[]> durations = new java.util.ArrayList<>();
                for (final int r : ranks) {
                    final double[] d = new double[10];
                    java.util.Arrays.fill(d, r == late ? 100 : 500);
                    durations.add(d);
                }
                ArrivalSkew.of(ranks, new int[] {node, node}, durations).forEach(sk -> f.rank(0, sk));
            }
        }
        for (final RankSkew[] passes : f.ranks().values()) {
            f.rank(1, passes[0]);
        }
    }

    @Test
    void aNodeWhoseNicsWereSlowAlikeStaysTheNodeWhenOneNicIsFastOnRepeat() {
        final Figures f = JudgeTest.figures(4, NICS, (mode, a, b) -> touches(2, a, b)
                ? (mode.equals("eth0") ? 0.3 : 0.2) : 1);
        final Findings found = Judge.tentative(f, 0.8);
        for (final Recheck r : found.allRechecks()) {
            for (int op = 0; op < Figures.PAIR_OPS.size(); op++) {
                f.repeat(Figures.test(r.mode(), op), r.a(), r.b(), f.modes().get(r.mode()).equals("eth0") ? 1 : 0.2);
            }
        }
        assertThat(Judge.confirm(found, f, 0.8, true)).singleElement().satisfies(s -> {
            assertThat(s.kind()).isEqualTo(Suspect.Kind.NODE);
            assertThat(s.confirmed()).isTrue();
        });
    }
}
