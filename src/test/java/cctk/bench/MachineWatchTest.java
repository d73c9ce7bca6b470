package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.ExitCode;
import cctk.bench.fixture.ThreadCommunicator;
import cctk.comm.CollectiveType;
import cctk.comm.DType;
import cctk.comm.MemoryStore;
import cctk.comm.ReduceOp;
import cctk.results.Result;
import cctk.results.inputs.ResultReader;
import cctk.results.ResultSet;
import cctk.spec.Benchmark;
import cctk.spec.MessageSize;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The machine read after every size of a sweep ({@link MachineWatch}), with scripted readings in place of the
 * probe: every row carries the reading after its size, a size during which it moved more than 2x is measured again
 * (once, and at most {@link MachineWatch#MAX_AGAIN} sizes a sweep), and the files say so.
 */
@Timeout(120)
class MachineWatchTest {

    @TempDir
    Path dir;

    /** Rank 0's readings in order, the last one repeated; counts the readings taken. */
    private static final class Script implements java.util.function.Function<CompilerThreads, CrossCore.Reading> {
        private final double[] us;
        private final AtomicInteger taken = new AtomicInteger();

        Script(final double... us) {
            this.us = us;
        }

        @Override
        public CrossCore.Reading apply(final CompilerThreads compilers) {
            final double v = us[Math.min(us.length - 1, taken.getAndIncrement())];
            return new CrossCore.Reading(v, 24, v * 0.9, false, null);
        }
    }

    private ResultSet run(final Benchmark b, final Script script, final StringWriter progress) throws IOException {
        final MemoryStore store = new MemoryStore(2, java.time.Duration.ofSeconds(20));
        final List<ExitCode> codes = ThreadCommunicator.run(2, ThreadCommunicator.shared(2), comm -> {
            final RunContext ctx = new RunContext("t", Path.of("t.yaml"), "job9", new cctk.results.RankInfo(
                comm.rank(), "h", 1, 0, 0, "cpu", "default"), dir, Map.of());
            return new Harness(comm, store, HarnessTest.spec(b), ctx, new PrintWriter(progress)).machineProbe(script)
                .run();
        });
        assertThat(codes).containsOnly(ExitCode.OK);
        return ResultReader.read(List.of(HarnessTest.file(dir, ".json")));
    }

    private static Benchmark sizes(final int n) {
        final List<MessageSize> sizes = java.util.stream.IntStream.range(0, n)
            .mapToObj(i -> new MessageSize(4096L << i, false)).toList();
        return HarnessTest.bench(List.of(CollectiveType.ALL_REDUCE, CollectiveType.BROADCAST), List.of(DType.FLOAT32),
            List.of(ReduceOp.SUM), sizes, 1, Benchmark.InPlace.OUT_OF_PLACE).withRepeats(2, true);
    }

    private static List<Result> ofSize(final ResultSet set, final long bytes) {
        return set.results().stream().filter(r -> r.sizeBytes() == bytes).toList();
    }

    @Test
    void aSizeDuringWhichTheMachineMovedIsMeasuredAgainAndEveryRowCarriesItsReading() throws IOException {
        // before the first size 50 µs; after it 300 (moved: measured again); after that 300, and 310 after the second
        final Script script = new Script(50, 300, 300, 310);
        final ResultSet set = run(sizes(2), script, new StringWriter());
        assertThat(script.taken.get()).isEqualTo(4);
        assertThat(ofSize(set, 4096)).hasSize(2).allSatisfy(r -> {
            assertThat(r.how().crossCoreUs()).isEqualTo(300);
            assertThat(r.how().retimed()).contains("machine 1");
            assertThat(r.how().repeats()).isEqualTo(2);
            // the first measurement's loops still count
            assertThat(r.how().attempts()).isGreaterThanOrEqualTo(4);
            assertThat(r.wrong()).isZero();
        });
        assertThat(ofSize(set, 8192)).hasSize(2).allSatisfy(r -> {
            assertThat(r.how().crossCoreUs()).isEqualTo(310);
            assertThat(r.how().retimed() == null || !r.how().retimed().contains("machine")).isTrue();
            assertThat(r.how().attempts()).isGreaterThanOrEqualTo(2);
        });
        final String text = Files.readString(HarnessTest.file(dir, ".txt"));
        assertThat(text).contains("(4 KiB) float32 | machine: 1 MiB cross-core round trip 300 µs",
            "(8 KiB) float32 | machine: 1 MiB cross-core round trip 310 µs", "machine 1)",
            "1 size(s) measured again, as the machine's cross-core reading moved more than 2x");
        assertThat(Files.readString(HarnessTest.file(dir, ".json"))).contains("\"sizes_measured_again_machine\": 1");
        final List<String> csv = Files.readAllLines(HarnessTest.file(dir, ".csv"));
        assertThat(csv.get(0)).endsWith(",time_across_ranks,crosscore_us");
        assertThat(csv.subList(1, csv.size())).allSatisfy(l -> assertThat(l).matches(".*,max,3[01]0$"));
    }

    @Test
    void aMachineThatKeepsMovingIsRecordedNotChased() throws IOException {
        // every reading 6x from the one before: each size is measured again once, and only MAX_AGAIN sizes are
        final double[] flips = new double[40];
        for (int i = 0; i < flips.length; i++) {
            flips[i] = i % 2 == 0 ? 50 : 300;
        }
        final Script script = new Script(flips);
        final ResultSet set = run(sizes(6), script, new StringWriter());
        final long again = set.results().stream().filter(r -> r.how().retimed() != null
            && r.how().retimed().contains("machine 1")).count();
        assertThat(again).isEqualTo(2L * MachineWatch.MAX_AGAIN);
        assertThat(set.results()).noneMatch(r -> r.how().retimed() != null
            && r.how().retimed().contains("machine 2"));
        // a reading before the first size, one after each size, one more after each size measured again
        assertThat(script.taken.get()).isEqualTo(1 + 6 + MachineWatch.MAX_AGAIN);
    }

    @Test
    void aMachineThatStaysPutCostsOneReadingASizeAndNothingElse() throws IOException {
        final Script script = new Script(55, 60, 52, 58);
        final ResultSet set = run(sizes(3), script, new StringWriter());
        assertThat(script.taken.get()).isEqualTo(4);
        assertThat(set.results()).hasSize(6).allSatisfy(r -> {
            assertThat(r.how().crossCoreUs()).isBetween(50.0, 60.0);
            assertThat(r.how().retimed() == null || !r.how().retimed().contains("machine")).isTrue();
        });
    }

    @Test
    void rawMeasurementMeasuresNothingAgainAndKeepsTheReadings() throws IOException {
        final Script script = new Script(50, 300, 310);
        final ResultSet set = run(HarnessTest.bench(List.of(CollectiveType.ALL_REDUCE), List.of(DType.FLOAT32),
            List.of(ReduceOp.SUM), List.of(new MessageSize(4096, false), new MessageSize(8192, false)), 1,
            Benchmark.InPlace.OUT_OF_PLACE).withRepeats(2, false), script, new StringWriter());
        assertThat(script.taken.get()).isEqualTo(3);
        assertThat(set.results()).hasSize(2).allSatisfy(r -> {
            assertThat(r.how().retimed()).isNull();
            assertThat(r.how().attempts()).isEqualTo(2);
        });
        assertThat(set.results().stream().map(r -> r.how().crossCoreUs()).toList()).containsExactly(300.0, 310.0);
    }

    @Test
    void nothingIsReadForNccl() {
        assertThat(MachineWatch.watches("nccl")).isFalse();
        assertThat(MachineWatch.watches("tcp")).isTrue();
        assertThat(MachineWatch.watches("gloo")).isTrue();
    }
}
