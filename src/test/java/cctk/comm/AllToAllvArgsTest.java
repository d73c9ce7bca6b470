package cctk.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.ExitCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 25: alltoallv's arguments are checked once, for every backend (before, tcp and shared memory each had a
 * check of their own, worded alike but not the same, and nccl had none: a negative count reached ncclSend).
 */
@Timeout(10)
class AllToAllvArgsTest {

    private static final long[] TWO = {2, 3};
    private static final long[] AT = {0, 2};

    @Test
    void wellFormedArgumentsPassAndTheirExtentIsTheEndOfTheLastBlock() {
        AllToAllvArgs.check(0, 2, TWO, AT, TWO, AT);
        assertThat(AllToAllvArgs.extent(TWO, AT)).isEqualTo(5);
        assertThat(AllToAllvArgs.extent(new long[] {4, 0}, new long[] {0, 9})).isEqualTo(9);
    }

    @Test
    void theWrongNumberOfEntriesIsRefused() {
        assertThatThrownBy(() -> AllToAllvArgs.check(0, 3, TWO, AT, TWO, AT)).isInstanceOf(CctkException.class)
            .hasMessage("alltoallv needs 3 counts and displacements per direction.")
            .satisfies(e -> assertThat(((CctkException) e).exitCode()).isEqualTo(ExitCode.USAGE));
    }

    @Test
    void aNegativeOrOverflowingBlockIsRefusedNamingRankAndPeer() {
        assertThatThrownBy(() -> AllToAllvArgs.check(1, 2, new long[] {-1, 3}, AT, TWO, AT))
            .hasMessageStartingWith("alltoallv on rank 1: the block for rank 0 has a negative");
        assertThatThrownBy(() -> AllToAllvArgs.check(0, 2, TWO, AT, TWO, new long[] {0, -4}))
            .hasMessageContaining("the block for rank 1").hasMessageContaining("receive 3 at -4");
        assertThatThrownBy(() -> AllToAllvArgs.check(0, 2, TWO, new long[] {0, Long.MAX_VALUE - 1}, TWO, AT))
            .hasMessageContaining("overflowing");
    }

    @Test
    void theBlockToItselfMustBeTheOneItExpects() {
        assertThatThrownBy(() -> AllToAllvArgs.check(1, 2, TWO, AT, new long[] {2, 4}, new long[] {0, 2}))
            .hasMessage("alltoallv on rank 1 sends 3 elements to itself but expects 4.");
    }
}
