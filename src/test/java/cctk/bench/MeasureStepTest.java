package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.bench.fixture.ThreadCommunicator;
import cctk.coll.Case;
import cctk.coll.Collective;
import cctk.comm.CollectiveType;
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
            return step.run(coll, new Case(dtype, op, world, comm.rank(), 0, 0, l), bufs, true);
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

    @Test
    void aCompileDisturbsALoopWhenItTookMoreThanTheNoiseAndMoreThanAHundredthOfTheLoop() {
        // a short loop: the 200 us floor decides
        assertThat(MeasureStep.compileDisturbed(150_000, 10_000_000)).isFalse();
        assertThat(MeasureStep.compileDisturbed(300_000, 10_000_000)).isTrue();
        // 20 calls of a 64 MiB gloo all_gather, 8 s: a 5 ms compile moves it by 0.06 %, a 100 ms one by over 1 %
        assertThat(MeasureStep.compileDisturbed(5_000_000, 8_000_000_000L)).isFalse();
        assertThat(MeasureStep.compileDisturbed(80_000_000, 8_000_000_000L)).isFalse();
        assertThat(MeasureStep.compileDisturbed(100_000_000, 8_000_000_000L)).isTrue();
    }

    @Test
    void aPointDuringWhichOneRankCollectedIsTimedAgainOnEveryRank() {
        // rank 1 runs a collection inside the first timed loop only: every rank times the point a second time
        final Benchmark b = HarnessTest.bench(List.of(CollectiveType.ALL_REDUCE), List.of(DType.FLOAT32),
            List.of(ReduceOp.SUM), List.of(new MessageSize(4096, false)), 1, Benchmark.InPlace.OUT_OF_PLACE);
        final int warmup = b.warmupIters();
        final List<java.util.Map<String, Object>> jit = ThreadCommunicator.run(2, ThreadCommunicator.shared(2),
            comm -> {
                final MeasureStep step = new MeasureStep(comm, b, new BufferData());
                final int[] calls = {0};
                final Collective real = Collectives.of(CollectiveType.ALL_REDUCE);
                final Collective coll = new Stalling(real, () -> {
                    if (++calls[0] == warmup + 1 && comm.rank() == 1) {
                        System.gc();
                    }
                });
                final MeasureStep.Result r = runOnce(step, coll, comm, true);
                assertThat(r.wrong()).isZero();
                assertThat(r.timesUs()).hasSize(b.iters());
                final java.util.Map<String, Object> m = step.jitDuringSweep();
                // warm-up, the disturbed timed loop and the ones after it (a compile of this JVM's may add one), the
                // check
                assertThat(calls[0]).isEqualTo(warmup + (1 + (int) m.get("points_retimed")) * b.iters()
                    + b.checkIters());
                return m;
            });
        assertThat(jit).allSatisfy(m -> {
            assertThat((int) m.get("points_retimed")).isBetween(1, MeasureStep.MAX_RETIMES);
            assertThat((String) m.get("summary")).contains("point(s) timed again after a compile or a collection");
        });
        // the decision is collective: both ranks timed the point equally often
        assertThat(jit.get(0).get("points_retimed")).isEqualTo(jit.get(1).get("points_retimed"));
    }

    @Test
    void aWarmUpCallThatLostItsCoreDoesNotShortenTheLoopThatFillsTheWindow() {
        // two warm-up calls; rank 1's second one (the last) stalls 400 ms, as a call whose rank lost its core: the loop
        // is sized by the fastest warm-up call, so it still runs as many calls as fill the window (at most 20 x 5)
        final Benchmark b = new Benchmark(List.of("threads"), List.of(1), List.of(CollectiveType.ALL_REDUCE),
            List.of(new MessageSize(4096, false)), List.of(DType.FLOAT32), List.of(ReduceOp.SUM), 2, 5, 0,
            Benchmark.InPlace.OUT_OF_PLACE, 0, new Benchmark.Imbalance(2.0, null), 30, 0).withRepeats(1, false)
            .withWindow(5000);    // 100 calls (20 x 5) fill it up to 50 ms a call: a cold first call on a busy machine
        final List<Integer> loops = ThreadCommunicator.run(2, ThreadCommunicator.shared(2), comm -> {
            final MeasureStep step = new MeasureStep(comm, b, new BufferData());
            final Collective real = Collectives.of(CollectiveType.ALL_REDUCE);
            final int[] calls = {0};
            final Collective coll = new Stalling(real, () -> {
                if (++calls[0] == 2 && comm.rank() == 1) {
                    sleep(400);
                }
            });
            return runOnce(step, coll, comm, false).timesUs().length;
        });
        assertThat(loops).containsExactly(b.maxLoopIters(), b.maxLoopIters());
    }

    @Test
    void aLoopSizedBySlowWarmUpCallsIsTimedAgainWithAsManyCallsAsFillTheWindow() {
        // rank 1's two warm-up calls stall 60 ms each, as calls whose ranks lost their cores: the loop gets 5 calls
        // (iters; 200 ms / 60 ms is fewer); its first call stalls 150 ms too, which stretches the loop past half the
        // 200 ms window, but its median call takes microseconds, so the loop is timed again with as many calls as fill
        // the window (at most 20 x 5), and the row says so
        final Benchmark b = new Benchmark(List.of("threads"), List.of(1), List.of(CollectiveType.ALL_REDUCE),
            List.of(new MessageSize(4096, false)), List.of(DType.FLOAT32), List.of(ReduceOp.SUM), 2, 5, 0,
            Benchmark.InPlace.OUT_OF_PLACE, 0, new Benchmark.Imbalance(2.0, null), 30, 0).withWindow(200);
        final List<MeasureStep.Result> all = ThreadCommunicator.run(2, ThreadCommunicator.shared(2), comm -> {
            final MeasureStep step = new MeasureStep(comm, b, new BufferData());
            final int[] calls = {0};
            final Collective coll = new Stalling(Collectives.of(CollectiveType.ALL_REDUCE), () -> {
                if (++calls[0] <= 3 && comm.rank() == 1) {
                    sleep(calls[0] == 3 ? 150 : 60);
                }
            });
            final MeasureStep.Result r = runOnce(step, coll, comm, false);
            assertThat((String) step.jitDuringSweep().get("summary")).contains("1 loop(s) timed again with more calls");
            return r;
        });
        assertThat(all).allSatisfy(r -> {
            assertThat(r.lengthened()).isEqualTo(1);
            assertThat(r.timesUs()).hasSize(b.maxLoopIters());
            assertThat(r.attempts()).isGreaterThanOrEqualTo(2);
        });
    }

    @Test
    void aShortLoopThatACollectionDisturbedIsLengthenedAtOnceNotTimedAgainAsShort() {
        // rank 1's two warm-up calls stall 60 ms each, so the loop gets 5 calls (iters), and rank 1 collects during the
        // first of them: the loop is short and disturbed; it is timed again once, with as many calls as fill the window
        // (at most 20 x 5), not first again with 5 calls (on a busy machine a compile lands in most short loops, and a
        // loop that waited for a quiet one was never lengthened)
        final Benchmark b = new Benchmark(List.of("threads"), List.of(1), List.of(CollectiveType.ALL_REDUCE),
            List.of(new MessageSize(4096, false)), List.of(DType.FLOAT32), List.of(ReduceOp.SUM), 2, 5, 0,
            Benchmark.InPlace.OUT_OF_PLACE, 0, new Benchmark.Imbalance(2.0, null), 30, 0).withWindow(200);
        final List<int[]> all = ThreadCommunicator.run(2, ThreadCommunicator.shared(2), comm -> {
            final MeasureStep step = new MeasureStep(comm, b, new BufferData());
            final int[] calls = {0};
            final Collective coll = new Stalling(Collectives.of(CollectiveType.ALL_REDUCE), () -> {
                if (++calls[0] <= 2 && comm.rank() == 1) {
                    sleep(60);
                } else if (calls[0] == 3 && comm.rank() == 1) {
                    System.gc();
                }
            });
            final MeasureStep.Result r = runOnce(step, coll, comm, false);
            assertThat(r.lengthened()).isEqualTo(1);
            assertThat(r.gcRetimes()).isZero();
            assertThat(r.timesUs()).hasSize(b.maxLoopIters());
            // the short loop, then only loops of the longer length (a compile may still disturb those)
            return new int[] {calls[0], r.attempts()};
        });
        assertThat(all).allSatisfy(c -> assertThat(c[0]).isEqualTo(2 + 5 + (c[1] - 1) * b.maxLoopIters()));
    }

    /** One repeat of a 4 KiB float32 sum of {@code coll} at W=2, on fresh buffers of {@code comm}. */
    private static MeasureStep.Result runOnce(final MeasureStep step, final Collective coll,
                                              final ThreadCommunicator comm, final boolean check) {
        final Layout l = coll.layout(4096, DType.FLOAT32, new Group(2, comm.rank(), null));
        final CommBuffer[] bufs = SweepBuffers.slices(comm.allocate(l.sendBytes()), comm.allocate(l.recvBytes()), l,
            false);
        return step.run(coll, new Case(DType.FLOAT32, ReduceOp.SUM, 2, comm.rank(), 0, 0, l), bufs, check);
    }

    private static void sleep(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A collective that runs {@code before} ahead of every call of {@code real}. */
    private record Stalling(Collective real, Runnable before) implements Collective {
        @Override
        public CollectiveType type() {
            return real.type();
        }

        @Override
        public Layout layout(final long totalBytes, final DType type, final Group group) {
            return real.layout(totalBytes, type, group);
        }

        @Override
        public double busBwFactor(final int world) {
            return real.busBwFactor(world);
        }

        @Override
        public cctk.coll.Blocks sendBlocks(final Case c) {
            return real.sendBlocks(c);
        }

        @Override
        public cctk.coll.Blocks recvBlocks(final Case c) {
            return real.recvBlocks(c);
        }

        @Override
        public long origins(final int world) {
            return real.origins(world);
        }

        @Override
        public void run(final cctk.comm.Communicator comm, final CommBuffer send, final CommBuffer recv, final Case c) {
            before.run();
            real.run(comm, send, recv, c);
        }
    }
}
