package cctk.diagnose.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class JudgeTest {

    private static final double GOOD = 1.0;

    /** n nodes on eth0, eth1 (+ striped), every pair at 1 GB/s ± 5% (deterministic), then {@code slow} applied. */
    static Figures figures(final int n, final List<String> nics, final Slowdown slow) {
        final Figures f = new Figures(names(n), Figures.modesOf(nics));
        final java.util.Random rnd = new java.util.Random(n);
        for (int t = 0; t < f.tests(); t++) {
            for (int a = 0; a < n; a++) {
                for (int b = a + 1; b < n; b++) {
                    final double noise = 0.95 + 0.1 * rnd.nextDouble();
                    f.pair(t, a, b, GOOD * noise * slow.factor(f.modes().get(Figures.modeOf(t)), a, b));
                }
            }
        }
        return f;
    }

    /** How much slower a pair is on a mode. */
    interface Slowdown {
        double factor(String mode, int a, int b);
    }

    static List<String> names(final int n) {
        final List<String> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add("node" + i);
        }
        return out;
    }

    private static Slowdown nic(final int node, final String nic, final double factor) {
        return (mode, a, b) -> (a == node || b == node) && (mode.equals(nic) || mode.equals(Figures.STRIPED))
                ? factor : 1;
    }

    private static List<String> subjects(final Findings found, final Figures f) {
        return found.suspects().stream().map(s -> s.kind().label() + " " + s.subject(f.nodes())).toList();
    }

    @Test
    void aCleanClusterHasNoSuspect() {
        for (final int n : new int[] {1, 2, 3, 4, 9}) {
            final Figures f = figures(n, List.of("eth0", "eth1"), (m, a, b) -> 1);
            assertThat(Judge.tentative(f, 0.8).suspects()).as("n=%d", n).isEmpty();
        }
    }

    @Test
    void oneSlowNicOfOneNodeIsThatNodeAndNicOnly() {
        for (final int n : new int[] {3, 4, 5, 8}) {
            final Figures f = figures(n, List.of("eth0", "eth1"), nic(1, "eth1", 0.05));
            final Findings found = Judge.tentative(f, 0.8);
            assertThat(subjects(found, f)).as("n=%d", n).containsExactly("node+NIC node2 eth1");
            final Evidence worst = found.suspects().get(0).evidence().get(0);
            assertThat(worst.ratio()).isLessThan(0.2);
            assertThat(worst.agree()).isEqualTo(n - 1);
            assertThat(worst.of()).isEqualTo(n - 1);
        }
    }

    @Test
    void aNodeSlowOnEveryNicIsTheNodeNotItsPairs() {
        final Slowdown both = (mode, a, b) -> a == 2 || b == 2 ? 0.1 : 1;
        final Figures f = figures(4, List.of("eth0", "eth1"), both);
        final Findings found = Judge.tentative(f, 0.8);
        assertThat(subjects(found, f)).containsExactly("node node3");
        assertThat(found.suspects().get(0).where()).isEqualTo("all NICs");
        assertThat(found.suspects().get(0).evidence()).hasSize(6);
    }

    @Test
    void aSlowPairThatNeitherNodeExplainsIsThePair() {
        final Slowdown cable = (mode, a, b) -> a == 0 && b == 3 && mode.equals("eth0") ? 0.3 : 1;
        final Figures f = figures(6, List.of("eth0", "eth1"), cable);
        final Findings found = Judge.tentative(f, 0.8);
        assertThat(subjects(found, f)).containsExactly("pair node1-node4 eth0");
        assertThat(found.rechecks().get(0)).containsExactly(new Recheck(0, 3, 0));
    }

    @Test
    void withFourNodesAndOneSlowThreePairsAreLeftAndNoneOfThemIsNamed() {
        // CI: node3 at 100 Mbit/s on both NICs, and node1-node2 striped at 0.57x of the two other clean pairs
        final Slowdown seen = (mode, a, b) -> a == 2 || b == 2 ? 0.02 : a == 0 && b == 1 && mode.equals(
                Figures.STRIPED) ? 0.57 : 1;
        final Figures f = figures(4, List.of("eth0", "eth1"), seen);
        assertThat(subjects(Judge.tentative(f, 0.8), f)).containsExactly("node node3");
        // with six nodes the same dip stands against five clean pairs and is named
        final Slowdown six = (mode, a, b) -> a == 2 || b == 2 ? 0.02 : a == 0 && b == 1 && mode.equals(
                Figures.STRIPED) ? 0.3 : 1;
        final Figures g = figures(6, List.of("eth0", "eth1"), six);
        assertThat(subjects(Judge.tentative(g, 0.8), g)).containsExactly("node node3", "pair node1-node2 striped");
    }

    @Test
    void withoutNicsASlowNodeIsTheNode() {
        final Figures f = figures(5, List.of(), (mode, a, b) -> a == 4 || b == 4 ? 0.5 : 1);
        final Findings found = Judge.tentative(f, 0.8);
        assertThat(subjects(found, f)).containsExactly("node node5");
        assertThat(found.suspects().get(0).where()).isEqualTo("network");
    }

    @Test
    void aSuspectIsNamedOnlyWhenTheRepeatIsSlowAgain() {
        final Figures f = figures(4, List.of("eth0", "eth1"), nic(1, "eth1", 0.05));
        final Findings found = Judge.tentative(f, 0.8);
        final List<Recheck> rechecks = found.allRechecks();
        assertThat(rechecks).containsExactly(new Recheck(1, 2, 1), new Recheck(1, 3, 1));
        final Figures healed = f;
        for (final Recheck r : rechecks) {
            for (int op = 0; op < Figures.PAIR_OPS.size(); op++) {
                healed.repeat(Figures.test(r.mode(), op), r.a(), r.b(), GOOD);
            }
        }
        assertThat(Judge.confirm(found, healed, 0.8, true)).singleElement()
                .satisfies(s -> assertThat(s.confirmed()).isFalse());
        for (final Recheck r : rechecks) {
            for (int op = 0; op < Figures.PAIR_OPS.size(); op++) {
                f.repeat(Figures.test(r.mode(), op), r.a(), r.b(), 0.05);
            }
        }
        final Suspect s = Judge.confirm(found, f, 0.8, true).get(0);
        assertThat(s.confirmed()).isTrue();
        assertThat(s.evidence().get(0).repeatRatio()).isLessThan(0.1);
        assertThat(Judge.confirm(found, figures(4, List.of("eth0", "eth1"), (m, a, b) -> 1), 0.8, false).get(0)
                .confirmed()).as("without repeats the first look stands").isTrue();
    }

    @Test
    void aSlowNodeInsideAndALateRankAreNamedWhenBothPassesAgree() {
        final Figures f = figures(4, List.of("eth0"), (m, a, b) -> 1);
        for (int p = 0; p < Figures.PASSES; p++) {
            for (int i = 0; i < 4; i++) {
                f.intra(p, i, i == 3 && p == 0 ? 0.2 : 2.0);
            }
        }
        final IntPredicate late = r -> r == 5;
        for (int p = 0; p < Figures.PASSES; p++) {
            for (int node = 0; node < 4; node++) {
                final int[] ranks = {2 * node, 2 * node + 1};
                final List<double[]> durations = new ArrayList<>();
                for (final int r : ranks) {
                    final double[] d = new double[10];
                    java.util.Arrays.fill(d, late.test(r) ? 100 : 500);
                    durations.add(d);
                }
                ArrivalSkew.of(ranks, new int[] {node, node}, durations).forEach(s -> f.rank(0, s));
                ArrivalSkew.of(ranks, new int[] {node, node}, durations).forEach(s -> f.rank(1, s));
            }
        }
        final Findings found = Judge.tentative(f, 0.8);
        assertThat(subjects(found, f)).containsExactly("node node4", "rank 5 on node3");
        final List<Suspect> verdict = Judge.confirm(found, f, 0.8, true);
        assertThat(verdict.get(0).confirmed()).as("node4 was fine in the second pass").isFalse();
        assertThat(verdict.get(1).confirmed()).isTrue();
        assertThat(verdict.get(1).evidence().get(0).agree()).isEqualTo(10);
    }

    /** Rates of ranks 0..n-1 on nodes 0..n-1 (one rank each, every one leads), with {@code rate} per rank and pass. */
    private static void cpus(final Figures f, final int ranksPerNode, final java.util.function.IntToDoubleFunction rate,
                             final int slowPassesFrom) {
        final int n = f.nodes().size();
        for (int p = 0; p < Figures.PASSES; p++) {
            for (int r = 0; r < n * ranksPerNode; r++) {
                final double noise = 1 + 0.03 * ((r * 7 + p) % 3 - 1);
                final double v = p >= slowPassesFrom ? rate.applyAsDouble(r) : 1.0;
                f.cpu(p, new CpuRate(r, r / ranksPerNode, r % ranksPerNode == 0, 1e6 * noise * v));
            }
        }
    }

    private static void repeatAll(final Figures f, final Findings found, final Slowdown again) {
        for (final Recheck r : found.allRechecks()) {
            for (int op = 0; op < Figures.PAIR_OPS.size(); op++) {
                f.repeat(Figures.test(r.mode(), op), r.a(), r.b(), again.factor(f.modes().get(r.mode()), r.a(),
                        r.b()));
            }
        }
    }

    @Test
    void aLeaderStarvedOfCpuIsNamedAsTheRankAndItsNodesSlowLinksAreLeftToIt() {
        // node3's only rank at 10 % of a CPU: its pairs on eth1 read slow too, as a slow NIC would
        final Slowdown links = nic(2, "eth1", 0.3);
        final Figures f = figures(4, List.of("eth0", "eth1"), links);
        cpus(f, 1, r -> r == 2 ? 0.1 : 1.0, 0);
        final Findings found = Judge.tentative(f, 0.8);
        assertThat(subjects(found, f)).contains("node+NIC node3 eth1", "rank 2 on node3");
        repeatAll(f, found, links);
        final List<Suspect> verdict = Judge.ordered(Judge.confirm(found, f, 0.8, true));
        assertThat(verdict).extracting(s -> s.kind().label() + " " + s.subject(f.nodes()) + " " + s.where() + " "
                + s.confirmed()).containsExactly("rank 2 on node3 CPU true", "node+NIC node3 eth1 eth1 false");
        final List<String> text = VerdictText.lines(new DiagnosisFiles.Header("t", java.time.LocalDateTime.now(),
                1 << 20, 0.8, true, 1, List.of("eth0", "eth1")), f, found, verdict);
        assertThat(text).anyMatch(l -> l.startsWith("SUSPECT rank 2 on node3: compute rate"))
                .anyMatch(l -> l.contains("left to rank 2's CPU"))
                .anyMatch(l -> l.contains("next:") && l.contains("no NIC of node3 is to blame"))
                .noneMatch(l -> l.startsWith("SUSPECT node+NIC"))
                .last().isEqualTo("verdict: 1 suspect(s): rank 2 on node3");
    }

    @Test
    void aRankSlowAtComputingOnlyOnceIsNotConfirmedAndExcusesNoNic() {
        final Figures f = figures(4, List.of("eth0", "eth1"), (m, a, b) -> 1);
        for (int p = 0; p < Figures.PASSES; p++) {
            for (int r = 0; r < 8; r++) {
                f.cpu(p, new CpuRate(r, r / 2, r % 2 == 0, 1e6 * (r == 4 && p == 0 ? 0.1 : 1 + 0.01 * r)));
            }
        }
        final Findings found = Judge.tentative(f, 0.8);
        assertThat(subjects(found, f)).containsExactly("rank 4 on node3");
        assertThat(Judge.confirm(found, f, 0.8, true)).singleElement().satisfies(s -> {
            assertThat(s.confirmed()).isFalse();
            assertThat(s.evidence().get(0).repeatRatio()).isGreaterThan(0.9);
        });
        // a starved rank that does not lead its node drives no NIC: node2's slow eth0 stays node2's
        final Slowdown links = nic(1, "eth0", 0.3);
        final Figures g = figures(4, List.of("eth0", "eth1"), links);
        cpus(g, 2, r -> r == 3 ? 0.1 : 1.0, 0);
        final Findings second = Judge.tentative(g, 0.8);
        repeatAll(g, second, links);
        assertThat(Judge.ordered(Judge.confirm(second, g, 0.8, true))).extracting(s -> s.kind().label() + " "
                + s.subject(g.nodes()) + " " + s.confirmed())
                .containsExactly("node+NIC node2 eth0 true", "rank 3 on node2 true");
    }

    @Test
    void aNodeSlowOnEveryNicAtFirstButOnOneNicAgainIsThatNicOnly() {
        final Slowdown first = (mode, a, b) -> a == 1 || b == 1 ? (mode.equals("eth0") ? 0.5 : 0.05) : 1;
        final Figures f = figures(4, List.of("eth0", "eth1"), first);
        final Findings found = Judge.tentative(f, 0.8);
        assertThat(subjects(found, f)).containsExactly("node node2");
        for (final Recheck r : found.allRechecks()) {
            for (int op = 0; op < Figures.PAIR_OPS.size(); op++) {
                f.repeat(Figures.test(r.mode(), op), r.a(), r.b(), f.modes().get(r.mode()).equals("eth0") ? 1 : 0.05);
            }
        }
        final List<Suspect> verdict = Judge.ordered(Judge.confirm(found, f, 0.8, true));
        assertThat(verdict).extracting(s -> s.kind().label() + " " + s.subject(f.nodes()) + " " + s.confirmed())
                .containsExactly("node+NIC node2 eth1 true", "node+NIC node2 eth0 false");
    }

    @Test
    void peersThatScatterMoreThanTheThresholdNameNothingButWhatStandsOut() {
        final double[] noisy = {1.0, 0.3, 0.9, 0.5, 1.2, 0.7, 1.1, 0.4};
        final Spread s = Spread.of(noisy, 0.8);
        assertThat(s.slow(0.3)).as("0.3 is below 0.8 x the median, but inside the scatter").isFalse();
        assertThat(s.slow(0.01)).isTrue();
        final Spread quiet = Spread.of(new double[] {1.0, 1.01, 0.99, 1.0, 1.02}, 0.8);
        assertThat(quiet.limit()).isEqualTo(0.8);
        assertThat(quiet.slow(0.79)).isTrue();
    }

    @Test
    void recheckRoundsKeepNodesDisjointAndReadBack() {
        final List<Recheck> r = List.of(new Recheck(0, 1, 0), new Recheck(0, 1, 1), new Recheck(1, 2, 0),
                new Recheck(2, 3, 1), new Recheck(0, 3, 0));
        final List<List<RecheckRounds.Item>> rounds = RecheckRounds.schedule(r);
        assertThat(rounds).hasSize(2);
        assertThat(rounds.get(0)).containsExactly(new RecheckRounds.Item(0, 1, List.of(0, 1)),
                new RecheckRounds.Item(2, 3, List.of(1)));
        assertThat(RecheckRounds.parse(RecheckRounds.text(rounds))).isEqualTo(rounds);
    }
}
