package cctk.coll;

import cctk.comm.HostBuffer;

import static cctk.coll.PatternStreamTest.caseOf;
import static org.assertj.core.api.Assertions.assertThat;

import cctk.comm.CollectiveType;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The proof that checks fail when they should: a correct result is damaged (one byte, one block moved, one rank's
 * slice in another's slot, a block sent to the wrong peer, an in-place offset, nothing written) and the fast path
 * must count exactly the wrong elements that the element-by-element definition ({@link ReferenceCheck}) counts,
 * and that count must be what the damage implies.
 */
@Timeout(120)
class CheckFailsTest {

    private final PatternStream stream = new PatternStream();

    /** Counts through the fast path, asserts the definition counts the same, returns the count. */
    private long counted(final Collective coll, final Case c, final HostBuffer recv) {
        final long fast = stream.countWrong(coll, c, recv);
        assertThat(fast).as("fast path against the definition").isEqualTo(ReferenceCheck.countWrong(coll, c, recv));
        return fast;
    }

    private static HostBuffer expected(final Collective coll, final Case c) {
        final HostBuffer recv = Bytes.allocate(c.layout().recvBytes());
        ReferenceCheck.writeExpected(coll, c, recv);
        return recv;
    }

    @Test
    void oneChangedByteIsOneWrongElementInEveryTypeAndPlace() {
        final Collective coll = Collectives.of(CollectiveType.ALL_REDUCE);
        for (final DType d : DType.values()) {
            final Case c = caseOf(CollectiveType.ALL_REDUCE, d, ReduceOp.MAX, 3, 1, 100_000);
            final HostBuffer recv = expected(coll, c);
            for (final long at : new long[] {0, 1, recv.bytes() / 2 + 3, recv.bytes() - 1}) {
                // flip the lowest bit of the element's first byte, whichever byte of it was hit: never a no-op
                final long element = at / d.bytes() * d.bytes();
                Bytes.put(recv, element, (byte) (Bytes.get(recv, element) ^ 1));
                assertThat(counted(coll, c, recv)).as("%s byte %d", d, at).isEqualTo(1);
                Bytes.put(recv, element, (byte) (Bytes.get(recv, element) ^ 1));
            }
            Bytes.put(recv, recv.bytes() - 1, (byte) (Bytes.get(recv, recv.bytes() - 1) ^ 0x10));
            Bytes.put(recv, 0, (byte) (Bytes.get(recv, 0) ^ 0x01));
            assertThat(counted(coll, c, recv)).as("%s two bytes", d).isEqualTo(2);
        }
    }

    @Test
    void aBlockMovedWithinTheResultIsCaughtByAPeriodShiftToo() {
        // all-reduce, 1 MiB float32 (P about 520): a chunk of 5000 elements written 1, 7, P and 3P elements too far
        final Collective coll = Collectives.of(CollectiveType.ALL_REDUCE);
        final Case c = caseOf(CollectiveType.ALL_REDUCE, DType.FLOAT32, ReduceOp.SUM, 4, 2, 1 << 20);
        final int p = CasePattern.of(coll, c).period().length();
        for (final long shift : new long[] {1, 7, p, 3L * p}) {
            final HostBuffer recv = expected(coll, c);
            Bytes.move(recv, 4 * 10_000L, 4 * (10_000L + shift), 4 * 5000);
            final long wrong = counted(coll, c, recv);
            assertThat(wrong).as("shift %d", shift).isBetween(5000L * 9 / 10, 5000L);
        }
    }

    @Test
    void oneRanksSliceInAnotherRanksSlotIsCaught() {
        // all_gather at W=4: slot 2 holds rank 1's data; reduce_scatter: rank 1 gets rank 3's reduced slice
        final Collective ag = Collectives.of(CollectiveType.ALL_GATHER);
        final Case c = caseOf(CollectiveType.ALL_GATHER, DType.BFLOAT16, null, 4, 0, 64_000);
        final long n = c.layout().count();
        final HostBuffer recv = expected(ag, c);
        Bytes.move(recv, 1 * n * 2, 2 * n * 2, (int) n * 2);
        assertThat(counted(ag, c, recv)).isBetween(n * 9 / 10, n);
        final Collective rs = Collectives.of(CollectiveType.REDUCE_SCATTER);
        final Case r1 = caseOf(CollectiveType.REDUCE_SCATTER, DType.INT8, ReduceOp.SUM, 4, 1, 64_000);
        final Case r3 = caseOf(CollectiveType.REDUCE_SCATTER, DType.INT8, ReduceOp.SUM, 4, 3, 64_000);
        final HostBuffer slice = expected(rs, r3);
        assertThat(counted(rs, r1, slice)).isBetween(r1.layout().count() * 9 / 10, r1.layout().count());
    }

    @Test
    void aBlockSentToTheWrongPeerOrFromTheWrongRootIsCaught() {
        // alltoall W=3: rank 2's block for rank 0 arrives at rank 1 in rank 2's slot
        final Collective a2a = Collectives.of(CollectiveType.ALLTOALL);
        final Case at0 = caseOf(CollectiveType.ALLTOALL, DType.FLOAT64, null, 3, 0, 48_000);
        final Case at1 = caseOf(CollectiveType.ALLTOALL, DType.FLOAT64, null, 3, 1, 48_000);
        final long n = at1.layout().count();
        final HostBuffer recv1 = expected(a2a, at1);
        final HostBuffer recv0 = expected(a2a, at0);
        for (long i = 0; i < n * 8; i++) {
            Bytes.put(recv1, 2 * n * 8 + i, Bytes.get(recv0, 2 * n * 8 + i));
        }
        assertThat(counted(a2a, at1, recv1)).isBetween(n * 9 / 10, n);
        // broadcast with root 2 at W=3, but rank 1's data came instead
        final Collective bc = Collectives.of(CollectiveType.BROADCAST);
        final Case b0 = caseOf(CollectiveType.BROADCAST, DType.UINT8, null, 3, 0, 30_000);
        final Case b1 = caseOf(CollectiveType.BROADCAST, DType.UINT8, null, 3, 1, 30_000);
        final HostBuffer got = Bytes.allocate(b0.layout().recvBytes());
        stream.fill(bc, b1, got);
        assertThat(counted(bc, b0, got)).isBetween(b0.layout().count() * 9 / 10, b0.layout().count());
    }

    @Test
    void anInPlaceOffsetIsCaught() {
        // in-place all_gather at W=4: rank 2's own block sits 16 bytes (4 float32) past rank*n in the one buffer
        final Collective ag = Collectives.of(CollectiveType.ALL_GATHER);
        final Case c = caseOf(CollectiveType.ALL_GATHER, DType.FLOAT32, null, 4, 2, 80_000);
        final long n = c.layout().count();
        final HostBuffer recv = expected(ag, c);
        final long own = c.layout().inPlaceSendOffset();
        Bytes.move(recv, own, own + 16, (int) (n * 4 - 16));
        assertThat(counted(ag, c, recv)).isBetween(n * 9 / 10, n);
        // in-place reduce_scatter at W=3: the result landed one element (2 bytes) past rank*n in the one buffer
        final Collective rs = Collectives.of(CollectiveType.REDUCE_SCATTER);
        final Case r = caseOf(CollectiveType.REDUCE_SCATTER, DType.FLOAT16, ReduceOp.MIN, 3, 1, 60_000);
        final long m = r.layout().count();
        final HostBuffer whole = Bytes.allocate(r.layout().inPlaceBytes());
        final HostBuffer right = expected(rs, r);
        for (long i = 0; i < m * 2; i++) {
            Bytes.put(whole, r.layout().inPlaceRecvOffset() + 2 + i, Bytes.get(right, i));
        }
        final HostBuffer slot = (HostBuffer) whole.slice(r.layout().inPlaceRecvOffset(), m * 2);
        assertThat(counted(rs, r, slot)).isBetween(m * 9 / 10, m);
    }

    @Test
    void aCallThatWritesNothingIsWrongAtEveryElement() {
        for (final int w : new int[] {2, 3}) {
            for (final PatternStreamTest.Item it : PatternStreamTest.everyCase(w, 1, 6000)) {
                final HostBuffer recv = Bytes.allocate(it.c().layout().recvBytes());
                for (long i = 0; i < recv.bytes(); i++) {
                    Bytes.put(recv, i, (byte) 0xA5);
                }
                final long checked = it.coll().checkedElements(it.c());
                assertThat(stream.countWrong(it.coll(), it.c(), recv)).as(it.what()).isEqualTo(checked);
            }
        }
    }

    @Test
    void floatingAverageWithinItsToleranceIsRightAndBeyondItWrong() {
        final Collective coll = Collectives.of(CollectiveType.ALL_REDUCE);
        final Case c = caseOf(CollectiveType.ALL_REDUCE, DType.FLOAT32, ReduceOp.AVG, 3, 0, 4000);
        final HostBuffer recv = expected(coll, c);
        final java.nio.ByteBuffer one = java.nio.ByteBuffer.allocate(4).order(Elements.ORDER);
        recv.download(40, one);
        final float want = one.getFloat(0);
        // a pre-multiplying backend rounds: one unit in the last place off is within (W + 2) of them
        one.clear();
        one.putFloat(0, Math.nextUp(want));
        recv.upload(one, 40);
        assertThat(counted(coll, c, recv)).isZero();
        one.clear();
        one.putFloat(0, want + 1);
        recv.upload(one, 40);
        assertThat(counted(coll, c, recv)).isEqualTo(1);
    }
}
