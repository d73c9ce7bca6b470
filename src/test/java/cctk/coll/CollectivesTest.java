package cctk.coll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import cctk.comm.CollectiveType;
import cctk.comm.DType;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class CollectivesTest {

    private static final long MIB = 1 << 20;

    private static Layout layout(final CollectiveType t, final long bytes, final DType type, final int w,
                                 final int rank) {
        return Collectives.of(t).layout(bytes, type, new Group(w, rank, AllToAllV.spreadWeights(w, 1)));
    }

    @Test
    void everyTypeHasAnImplementationThatNamesIt() {
        for (final CollectiveType t : CollectiveType.values()) {
            assertThat(Collectives.of(t).type()).isEqualTo(t);
        }
    }

    @Test
    void busBandwidthFactorsFollowNcclTests() {
        assertThat(Collectives.of(CollectiveType.ALL_REDUCE).busBwFactor(4)).isEqualTo(1.5);
        assertThat(Collectives.of(CollectiveType.ALL_GATHER).busBwFactor(4)).isEqualTo(0.75);
        assertThat(Collectives.of(CollectiveType.REDUCE_SCATTER).busBwFactor(4)).isEqualTo(0.75);
        assertThat(Collectives.of(CollectiveType.ALLTOALL).busBwFactor(8)).isEqualTo(0.875);
        assertThat(Collectives.of(CollectiveType.ALLTOALLV).busBwFactor(2)).isEqualTo(0.5);
        assertThat(Collectives.of(CollectiveType.BROADCAST).busBwFactor(4)).isEqualTo(1.0);
        assertThat(Collectives.of(CollectiveType.REDUCE).busBwFactor(4)).isEqualTo(1.0);
        assertThat(Collectives.of(CollectiveType.SENDRECV).busBwFactor(4)).isEqualTo(1.0);
        assertThat(Collectives.of(CollectiveType.ALL_REDUCE).busBwFactor(1)).isZero();
    }

    @Test
    void allReduceOfOneMibFloat32OnFourRanks() {
        final Layout l = layout(CollectiveType.ALL_REDUCE, MIB, DType.FLOAT32, 4, 2);
        assertThat(l.count()).isEqualTo(262_144);
        assertThat(l.sizeBytes()).isEqualTo(MIB);
        // 1 MiB in 100 us: algbw 10.48576 GB/s, busbw x1.5 = 15.72864
        final double algBw = l.sizeBytes() / 100e-6 / 1e9;
        assertThat(algBw).isCloseTo(10.48576, within(1e-9));
        assertThat(algBw * Collectives.of(CollectiveType.ALL_REDUCE).busBwFactor(4)).isCloseTo(15.72864,
            within(1e-9));
    }

    @Test
    void perRankCountsRoundDownTo16Bytes() {
        // 1000 B / 3 ranks = 333 B = 83 floats -> 80 floats (320 B); S = 3 x 320 = 960
        final Layout ag = layout(CollectiveType.ALL_GATHER, 1000, DType.FLOAT32, 3, 1);
        assertThat(ag.count()).isEqualTo(80);
        assertThat(ag.sizeBytes()).isEqualTo(960);
        assertThat(ag.sendBytes()).isEqualTo(320);
        assertThat(ag.recvBytes()).isEqualTo(960);
        assertThat(ag.inPlaceSendOffset()).isEqualTo(320);
        assertThat(ag.inPlaceBytes()).isEqualTo(960);
        final Layout rs = layout(CollectiveType.REDUCE_SCATTER, 1000, DType.FLOAT64, 3, 2);
        assertThat(rs.count()).isEqualTo(40);
        assertThat(rs.sizeBytes()).isEqualTo(960);
        assertThat(rs.inPlaceRecvOffset()).isEqualTo(640);
        final Layout a2a = layout(CollectiveType.ALLTOALL, MIB, DType.INT8, 4, 0);
        assertThat(a2a.count()).isEqualTo(MIB / 4);
        assertThat(a2a.sizeBytes()).isEqualTo(MIB);
        assertThat(layout(CollectiveType.ALL_GATHER, 40, DType.FLOAT32, 4, 0).sizeBytes()).isZero();
    }

    @Test
    void alltoallvSizeIsTheBusiestRanksTraffic() {
        // busiest: rank 0 sends 3+1 = 4 units, rank 1 receives 3+1 = 4 units; S = 8000 B -> 500 floats a unit
        final double[][] w = {{0, 3, 1}, {1, 0, 1}, {1, 1, 0}};
        final Collective v = Collectives.of(CollectiveType.ALLTOALLV);
        final Layout l0 = v.layout(8000, DType.FLOAT32, new Group(3, 0, w));
        final Layout l1 = v.layout(8000, DType.FLOAT32, new Group(3, 1, w));
        assertThat(l0.vector().sendCounts()).containsExactly(0, 1500, 500);
        assertThat(l1.vector().recvCounts()).containsExactly(1500, 0, 500);
        assertThat(l0.sizeBytes()).isEqualTo(8000).isEqualTo(l1.sizeBytes());
        assertThat(l1.recvBytes()).isEqualTo(8000);
        assertThat(l1.vector().recvDispls()).containsExactly(0, 1500, 1500);
    }

    @Test
    void spreadWeightsVaryUpToTheSpread() {
        final double[][] w = AllToAllV.spreadWeights(4, 3.0);
        final double[] all = Arrays.stream(w).flatMapToDouble(Arrays::stream).toArray();
        assertThat(Arrays.stream(all).min().getAsDouble()).isEqualTo(1.0);
        assertThat(Arrays.stream(all).max().getAsDouble()).isEqualTo(3.0);
        final Blocks b = Blocks.of(new long[] {4, 0, 5, 7}, p -> 10 + p);
        assertThat(b.blockOf(4)).isEqualTo(2);
        assertThat(b.blockOf(3)).isZero();
        assertThat(b.blockOf(12)).isEqualTo(3);
        assertThat(b.start(3)).isEqualTo(9);
        assertThat(b.origin(3)).isEqualTo(13);
        assertThat(b.total()).isEqualTo(16);
    }

    @Test
    void blocksCoverTheBuffersAndCarryOriginsInRange() {
        for (final int w : new int[] {1, 2, 5}) {
            for (int r = 0; r < w; r++) {
                for (final CollectiveType t : CollectiveType.values()) {
                    final Collective coll = Collectives.of(t);
                    final Layout l = layout(t, 100_000, DType.INT32, w, r);
                    final Case c = new Case(DType.INT32, null, w, r, w - 1, 1, l);
                    final Blocks send = coll.sendBlocks(c);
                    final Blocks recv = coll.recvBlocks(c);
                    assertThat(send.total() * 4).as("%s w=%d r=%d", t, w, r).isEqualTo(l.sendBytes());
                    assertThat(recv.total() * 4).isLessThanOrEqualTo(l.recvBytes());
                    for (final Blocks b : new Blocks[] {send, recv}) {
                        for (int k = 0; k < b.count(); k++) {
                            assertThat(b.origin(k)).isBetween(0L, coll.origins(w) - 1);
                        }
                    }
                }
            }
        }
        // the blocks a rank receives carry the origins their senders gave them
        final Collective a2a = Collectives.of(CollectiveType.ALLTOALL);
        final Layout l = layout(CollectiveType.ALLTOALL, 4096, DType.INT32, 3, 0);
        final Blocks sentBy2 = a2a.sendBlocks(new Case(DType.INT32, null, 3, 2, 0, 1, l));
        final Blocks recvAt1 = a2a.recvBlocks(new Case(DType.INT32, null, 3, 1, 0, 1, l));
        assertThat(recvAt1.origin(2)).isEqualTo(sentBy2.origin(1));
        assertThat(recvAt1.origin(0)).isNotEqualTo(recvAt1.origin(2)).isNotEqualTo(sentBy2.origin(0));
    }
}
