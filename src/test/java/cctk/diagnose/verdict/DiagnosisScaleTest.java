package cctk.diagnose.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A diagnosis of 2,048 simulated nodes on two NICs: the tournament schedules every pair exactly once per mode, the
 * figures of three planted faults (one node's eth1, one node on all NICs, one pair on eth0) are found exactly,
 * their repeats are scheduled and confirm them. Prints how long schedule and verdict took.
 */
@Timeout(60)
class DiagnosisScaleTest {

    private static final int N = 2048;

    @Test
    void twoThousandFortyEightNodes() {
        final Figures f = new Figures(JudgeTest.names(N), Figures.modesOf(List.of("eth0", "eth1")));
        final long t0 = System.nanoTime();
        final Tournament t = new Tournament(N);
        final byte[][] measured = new byte[f.modes().size()][(int) Tournament.pairCount(N)];
        for (int r = 0; r < t.rounds(); r++) {
            final int[] pairs = t.pairs(r);
            for (int m = 0; m < f.modes().size(); m++) {
                for (int k = 0; k < pairs.length; k += 2) {
                    measured[m][Tournament.pairIndex(N, pairs[k], pairs[k + 1])]++;
                }
            }
        }
        final long scheduled = System.nanoTime();
        // the figures the schedule measured, filled in pair order (the order they arrive in does not matter)
        final java.util.SplittableRandom rnd = new java.util.SplittableRandom(1);
        for (int m = 0; m < f.modes().size(); m++) {
            for (int op = 0; op < Figures.PAIR_OPS.size(); op++) {
                for (int a = 0; a < N; a++) {
                    for (int b = a + 1; b < N; b++) {
                        f.pair(Figures.test(m, op), a, b, figure(f.modes().get(m), a, b, rnd));
                    }
                }
            }
        }
        final long filled = System.nanoTime();
        final Findings found = Judge.tentative(f, 0.8);
        final List<List<RecheckRounds.Item>> rounds = RecheckRounds.schedule(found.allRechecks());
        for (final List<RecheckRounds.Item> round : rounds) {
            for (final RecheckRounds.Item i : round) {
                for (final int m : i.modes()) {
                    for (int op = 0; op < Figures.PAIR_OPS.size(); op++) {
                        f.repeat(Figures.test(m, op), i.a(), i.b(), figure(f.modes().get(m), i.a(), i.b(), rnd));
                    }
                }
            }
        }
        final List<Suspect> verdict = Judge.ordered(Judge.confirm(found, f, 0.8, true));
        final long judged = System.nanoTime();
        System.out.printf("2048 nodes: %d rounds of %d pairs on %d modes scheduled in %d ms; verdict (%d tests,"
                + " %d rechecks in %d rounds) in %d ms%n", t.rounds(), t.pairsPerRound(), f.modes().size(),
                (scheduled - t0) / 1_000_000, f.tests(), found.allRechecks().size(), rounds.size(),
                (judged - filled) / 1_000_000);

        for (final byte[] mode : measured) {
            for (final byte times : mode) {
                assertThat(times).isEqualTo((byte) 1);
            }
        }
        assertThat(verdict).extracting(s -> s.kind().label() + " " + s.subject(f.nodes()) + " " + s.confirmed())
                .containsExactly("node node701 true", "node+NIC node101 eth1 true", "pair node6-node10 eth0 true");
        assertThat(verdict.get(1).evidence().get(0).agree()).isEqualTo(N - 1);
    }

    /** 10 GB/s ± 5%, with node 100's eth1, node 700's every NIC and the pair 5-9 on eth0 slow. */
    private static double figure(final String mode, final int a, final int b, final java.util.SplittableRandom rnd) {
        double v = 10 * (0.95 + 0.1 * rnd.nextDouble());
        if ((a == 100 || b == 100) && (mode.equals("eth1") || mode.equals(Figures.STRIPED))) {
            v *= 0.1;
        }
        if (a == 700 || b == 700) {
            v *= 0.3;
        }
        if (a == 5 && b == 9 && mode.equals("eth0")) {
            v *= 0.5;
        }
        return v;
    }
}
