package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.bench.fixture.ThreadCommunicator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The ranks' vote, as the sweep and a diagnosis's warm-up take it: every rank gets the same answer. */
@Timeout(60)
class RankVoteTest {

    private static final int WORLD = 3;

    @Test
    void everyRankGetsTheLargestValueAndTheLowestFailingRank() {
        final List<List<Integer>> answers = ThreadCommunicator.run(WORLD, ThreadCommunicator.shared(WORLD), comm -> {
            try (RankVote vote = new RankVote(comm)) {
                final int r = comm.rank();
                return List.of(vote.maxOverRanks(10 * r + 1), vote.firstFailingRank(r >= 1), vote.anyRank(r == 2) ? 1
                        : 0, vote.anyRank(false) ? 1 : 0, vote.firstFailingRank(false));
            }
        });
        assertThat(answers).containsOnly(List.of(21, 1, 1, 0, -1));
    }

    @Test
    void aWarmUpEndsWhenNoRankCompiledOrAnyRankSpentItsBudget() {
        // a diagnosis's warm-up vote: bit 1 a rank whose JIT compiled, bit 2 a rank out of budget; 1 goes on
        final int[][] rounds = {{1, 0, 0}, {0, 0, 0}, {1, 2, 0}, {3, 0, 1}};
        final List<List<Integer>> answers = ThreadCommunicator.run(WORLD, ThreadCommunicator.shared(WORLD), comm -> {
            try (RankVote vote = new RankVote(comm)) {
                final Integer[] got = new Integer[rounds.length];
                for (int i = 0; i < rounds.length; i++) {
                    got[i] = vote.maxOverRanks(rounds[i][comm.rank()]);
                }
                return List.of(got);
            }
        });
        assertThat(answers).containsOnly(List.of(1, 0, 2, 3));
    }
}
