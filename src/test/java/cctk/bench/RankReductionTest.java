package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.bench.fixture.ThreadCommunicator;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The per-point reduction: every rank ends with the same combined figures, in log2 steps (two more off powers of 2). */
@Timeout(60)
class RankReductionTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12})
    void everyRankGetsTheSameMaxAndSumInLogarithmicSteps(final int world) {
        final List<double[]> got = ThreadCommunicator.run(world, ThreadCommunicator.shared(world), comm -> {
            try (RankReduction red = new RankReduction(comm, 4)) {
                final int r = comm.rank();
                final double[] v = {r * 10.0, r + 1.0, (r * 7) % 5, -r};
                red.allReduce(v, 4, (into, other, n) -> {
                    into[0] = Math.max(into[0], other[0]);
                    into[1] += other[1];
                    into[2] = Math.min(into[2], other[2]);
                    into[3] += other[3];
                });
                return new double[] {v[0], v[1], v[2], v[3], red.steps()};
            }
        });
        final int p2 = Integer.highestOneBit(world);
        final int steps = Integer.numberOfTrailingZeros(p2) + (world > p2 ? 2 : 0);
        for (final double[] v : got) {
            assertThat(v[0]).isEqualTo((world - 1) * 10.0);
            assertThat(v[1]).isEqualTo(world * (world + 1) / 2.0);
            assertThat(v[2]).isEqualTo(0);
            assertThat(v[3]).isEqualTo(-world * (world - 1) / 2.0);
            assertThat((int) v[4]).as("steps at W=%d", world).isEqualTo(steps);
        }
    }

    @Test
    void pointStatsKeepTheSlowestMeanItsRankAndItsOwnIterations() {
        final List<double[]> got = ThreadCommunicator.run(3, ThreadCommunicator.shared(3), comm -> {
            try (RankReduction red = new RankReduction(comm, PointStats.SLOTS + 3)) {
                final double[][] times = {{1, 5, 0}, {4, 2, 3}, {3, 3, 3}};
                final long[] wrong = {0, 2, 5};
                final double[] v = new double[PointStats.SLOTS + 3];
                final int n = PointStats.encode(new MeasureStep.Result(times[comm.rank()], 1, 1, 0, 0, 0, false, 0,
                    wrong[comm.rank()], 100, 10, 30), comm.rank(), v);
                red.allReduce(v, n, PointStats.RULE);
                return v;
            }
        });
        for (final double[] v : got) {
            assertThat(v[PointStats.MEAN]).isEqualTo(3.0);
            // ranks 1 and 2 both have a mean of 3: the lower one is named, whatever the order of combination
            assertThat(v[PointStats.SLOWEST]).isEqualTo(1.0);
            assertThat(PointStats.wrong(v)).isEqualTo(7);
            assertThat(v[PointStats.DATA_NANOS]).isEqualTo(300);
            assertThat(v[PointStats.DATA_BYTES]).isEqualTo(90);
            final IterationStats s = PointStats.stats(v, PointStats.SLOTS + 3);
            // rank 1's own iterations (4, 2, 3), not the per-iteration maxima over ranks (4, 5, 3)
            assertThat(s.minUs()).isEqualTo(2.0);
            assertThat(s.p99Us()).isEqualTo(4.0);
        }
    }

    /**
     * time_across_ranks: mean, over the same three ranks: the mean of the per-rank means (nccl-tests' default), and
     * iteration by iteration the mean over ranks, so min ≤ time ≤ max holds of the figures it reports.
     */
    @Test
    void theMeanOverRanksAveragesTheMeansAndEachIteration() {
        final List<double[]> got = ThreadCommunicator.run(3, ThreadCommunicator.shared(3), comm -> {
            try (RankReduction red = new RankReduction(comm, PointStats.SLOTS + 3)) {
                final double[][] times = {{1, 5, 0}, {4, 2, 3}, {3, 3, 3}};
                final double[] v = new double[PointStats.SLOTS + 3];
                final int n = PointStats.encode(new MeasureStep.Result(times[comm.rank()], comm.rank() + 1, 1, 0, 0, 0,
                    false, 0, 0, 100, 10, 30), comm.rank(), v);
                red.allReduce(v, n, PointStats.rule(cctk.spec.Benchmark.TimeAcrossRanks.MEAN));
                PointStats.finish(v, n, cctk.spec.Benchmark.TimeAcrossRanks.MEAN);
                return v;
            }
        });
        final org.assertj.core.data.Offset<Double> exact = org.assertj.core.api.Assertions.within(1e-12);
        for (final double[] v : got) {
            // per-rank means 2, 3, 3: the max would say 3
            assertThat(v[PointStats.MEAN]).isCloseTo(8.0 / 3, exact);
            assertThat(v[PointStats.FIRST_MEAN]).isCloseTo(2.0, exact);
            assertThat(v[PointStats.RANKS]).isEqualTo(3.0);
            assertThat(v[PointStats.DATA_NANOS]).isEqualTo(300);
            final IterationStats s = PointStats.stats(v, PointStats.SLOTS + 3);
            // the iterations' means over ranks: 8/3, 10/3, 2
            assertThat(s.timeUs()).isCloseTo(8.0 / 3, exact);
            assertThat(s.minUs()).isCloseTo(2.0, exact);
            assertThat(s.p99Us()).isCloseTo(10.0 / 3, exact);
            assertThat(s.minUs()).isLessThanOrEqualTo(s.timeUs());
        }
    }

    @Test
    void vectorsOfAnyLengthUpToTheCapacityFollowEachOther() {
        // loops that ran more iterations (a window to fill) make longer vectors than the one before
        final List<double[]> got = ThreadCommunicator.run(2, ThreadCommunicator.shared(2), comm -> {
            try (RankReduction red = new RankReduction(comm, 40)) {
                final double[] v = new double[40];
                for (final int length : new int[] {8, 40, 10, 40}) {
                    java.util.Arrays.fill(v, comm.rank() + length);
                    red.allReduce(v, length, (into, other, n) -> {
                        for (int i = 0; i < n; i++) {
                            into[i] = Math.max(into[i], other[i]);
                        }
                    });
                    assertThat(v[length - 1]).isEqualTo(1 + length);
                }
                return v;
            }
        });
        assertThat(got).hasSize(2);
    }
}
