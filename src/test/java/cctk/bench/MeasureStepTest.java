package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.bench.fixture.ThreadCommunicator;
import cctk.coll.Case;
import cctk.coll.Collective;
import cctk.coll.CollectiveType;
import cctk.coll.Collectives;
import cctk.coll.Group;
import cctk.coll.Layout;
import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.spec.Benchmark;
import cctk.spec.MessageSize;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class MeasureStepTest {

    private static List<MeasureStep.Result> measure(final ThreadCommunicator.Shared shared, final int world,
                                                    final CollectiveType type, final DType dtype, final ReduceOp op,
                                                    final boolean inPlace, final int checkIters) {
        final Benchmark b = HarnessTest.bench(List.of(type), List.of(dtype), op == null ? List.of() : List.of(op),
            List.of(new MessageSize(1 << 20, false)), checkIters, Benchmark.InPlace.BOTH);
        return ThreadCommunicator.run(world, shared, comm -> {
            final MeasureStep step = new MeasureStep(comm, b, new BufferData());
            final Collective coll = Collectives.of(type);
            final Layout l = coll.layout(1 << 20, dtype, new Group(world, comm.rank(), null));
            final CommBuffer[] bufs = SweepBuffers.slices(comm.allocate(Math.max(l.sendBytes(), l.inPlaceBytes())),
                comm.allocate(l.recvBytes()), l, inPlace);
            return step.run(coll, new Case(dtype, op, world, comm.rank(), 0, 0, l), bufs);
        });
    }

    @Test
    void aResultCarriesTheTimeSpentOnDataAndTheBytesChecked() {
        final List<MeasureStep.Result> all = measure(ThreadCommunicator.shared(3), 3, CollectiveType.ALL_GATHER,
            DType.BFLOAT16, null, true, 2);
        for (final MeasureStep.Result r : all) {
            assertThat(r.wrong()).isZero();
            // two check iterations of the whole gathered buffer: 1 MiB rounded down to 16 bytes per rank, times 3
            final long perRank = (1 << 20) / 3 / 16 * 16;
            assertThat(r.checkedBytes()).isEqualTo(2 * 3 * perRank);
            assertThat(r.fillCheckNanos()).isPositive();
            // the first fill, then per check: poison the output, fill the input, check the output
            assertThat(r.dataBytes()).isEqualTo(perRank + 2 * (3 * perRank + perRank + 3 * perRank));
        }
    }

    @Test
    void withoutChecksOnlyTheFirstFillIsTimedAndNothingIsChecked() {
        final List<MeasureStep.Result> all = measure(ThreadCommunicator.shared(2), 2, CollectiveType.ALL_REDUCE,
            DType.FLOAT32, ReduceOp.SUM, false, 0);
        assertThat(all).allSatisfy(r -> {
            assertThat(r.wrong()).isEqualTo(-1);
            assertThat(r.checkedBytes()).isZero();
            assertThat(r.fillCheckNanos()).isPositive();
        });
    }

    @Test
    void oneFlippedByteOnOneRankIsOneWrongElementThere() {
        final ThreadCommunicator.Shared shared = ThreadCommunicator.shared(2);
        shared.corruptRank = 1;
        final List<MeasureStep.Result> all = measure(shared, 2, CollectiveType.ALL_GATHER, DType.INT8, null,
            false, 3);
        assertThat(all).extracting(MeasureStep.Result::wrong).containsExactly(0L, 3L);
    }
}
