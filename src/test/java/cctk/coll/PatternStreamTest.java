package cctk.coll;

import cctk.comm.HostBuffer;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.comm.CollectiveType;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fast path against the definition: {@link PatternStream} writes what {@link CasePattern} defines, and a
 * correct result has no wrong element, for every collective, type, operator and a few world sizes. Damage of every
 * kind is in {@link CheckFailsTest}.
 */
@Timeout(120)
class PatternStreamTest {

    private final PatternStream stream = new PatternStream();

    /** One collective and one case of it, named for failure messages. */
    record Item(Collective coll, Case c, String what) {
    }

    static Case caseOf(final CollectiveType type, final DType dtype, final ReduceOp op, final int world,
                       final int rank, final long bytes) {
        final Collective coll = Collectives.of(type);
        final Layout l = coll.layout(bytes, dtype, new Group(world, rank, AllToAllV.spreadWeights(world, 3)));
        return new Case(dtype, op, world, rank, world - 1, 2, l);
    }

    /** Every (collective, type, op) that carries data, at {@code world} ranks, on rank {@code rank}. */
    static List<Item> everyCase(final int world, final int rank, final long bytes) {
        final List<Item> all = new ArrayList<>();
        for (final CollectiveType t : CollectiveType.values()) {
            final Collective coll = Collectives.of(t);
            if (!coll.carriesData()) {
                continue;
            }
            for (final DType d : DType.values()) {
                for (final ReduceOp op : t.reduces() ? ReduceOp.values() : new ReduceOp[] {null}) {
                    all.add(new Item(coll, caseOf(t, d, op, world, rank, bytes),
                        t.specName() + " " + d.specName() + " " + op + " w=" + world + " " + bytes + " B"));
                }
            }
        }
        return all;
    }

    static long firstDifference(final HostBuffer a, final HostBuffer b) {
        for (long i = 0; i < a.bytes(); i++) {
            if (Bytes.get(a, i) != Bytes.get(b, i)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void fillWritesTheDefinitionAndACorrectResultHasNoWrongElement() {
        for (final int w : new int[] {1, 2, 3, 5}) {
            // 5000 B: blocks shorter than a period; 90 kB: blocks of several tiles, the last one ragged
            for (final long bytes : new long[] {5000, 90_000}) {
                for (final Item it : everyCase(w, w / 2, bytes)) {
                    final Layout l = it.c().layout();
                    final HostBuffer fast = Bytes.allocate(l.sendBytes());
                    final HostBuffer slow = Bytes.allocate(l.sendBytes());
                    stream.fill(it.coll(), it.c(), fast);
                    ReferenceCheck.writeInputs(it.coll(), it.c(), slow);
                    assertThat(firstDifference(fast, slow)).as(it.what()).isEqualTo(-1);
                    final HostBuffer recv = Bytes.allocate(l.recvBytes());
                    ReferenceCheck.writeExpected(it.coll(), it.c(), recv);
                    assertThat(stream.countWrong(it.coll(), it.c(), recv)).as(it.what()).isZero();
                }
            }
        }
    }

    @Test
    void buffersOfManyChunksAreFilledAndCheckedAcrossChunkEdges() {
        // 3.3 MiB of bfloat16 in 4 blocks: chunk edges fall inside tiles
        final Case c = caseOf(CollectiveType.ALL_GATHER, DType.BFLOAT16, null, 4, 3, 3_500_000);
        final Collective coll = Collectives.of(CollectiveType.ALL_GATHER);
        final HostBuffer recv = Bytes.allocate(c.layout().recvBytes());
        ReferenceCheck.writeExpected(coll, c, recv);
        assertThat(stream.countWrong(coll, c, recv)).isZero();
        final HostBuffer send = Bytes.allocate(c.layout().sendBytes());
        final HostBuffer slow = Bytes.allocate(c.layout().sendBytes());
        stream.fill(coll, c, send);
        ReferenceCheck.writeInputs(coll, c, slow);
        assertThat(firstDifference(send, slow)).isEqualTo(-1);
    }

    @Test
    void theSamePeriodServesEveryRankAndEveryBlock() {
        // the receiver's expectation of a block is what its sender wrote: all_gather slot q is rank q's send
        final Collective coll = Collectives.of(CollectiveType.ALL_GATHER);
        final Case c0 = caseOf(CollectiveType.ALL_GATHER, DType.INT32, null, 3, 0, 40_000);
        final HostBuffer recv = Bytes.allocate(c0.layout().recvBytes());
        for (int q = 0; q < 3; q++) {
            final Case cq = caseOf(CollectiveType.ALL_GATHER, DType.INT32, null, 3, q, 40_000);
            stream.fill(coll, cq, recv.slice(q * cq.layout().sendBytes(), cq.layout().sendBytes()));
        }
        assertThat(stream.countWrong(coll, c0, recv)).isZero();
        assertThat(ReferenceCheck.countWrong(coll, c0, recv)).isZero();
    }

    @Test
    void fillAndCheckAllocateNothingPerChunkOrTile() {
        final com.sun.management.ThreadMXBean mx =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        final Collective coll = Collectives.of(CollectiveType.ALL_REDUCE);
        final Case c = caseOf(CollectiveType.ALL_REDUCE, DType.FLOAT32, ReduceOp.SUM, 4, 1, 16 << 20);
        final HostBuffer buf = Bytes.allocate(c.layout().sendBytes());
        ReferenceCheck.writeExpected(coll, c, buf);
        for (int i = 0; i < 3; i++) {
            stream.fill(coll, c, buf);
            stream.countWrong(coll, c, buf);
        }
        final long before = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
        stream.fill(coll, c, buf);
        final long wrong = stream.countWrong(coll, c, buf);
        final long allocated = mx.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        // 16 chunks and about 2000 tiles each way: a few bytes a tile would show
        assertThat(allocated).isLessThan(1024);
        assertThat(wrong).isPositive();
    }
}
