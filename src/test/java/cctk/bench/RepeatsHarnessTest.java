package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.ExitCode;
import cctk.bench.fixture.ThreadCommunicator;
import cctk.comm.CollectiveType;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.ForwardingCommunicator;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Repeats through the harness: interleaved loops, rows that say how they were obtained, raw measurement. */
@Timeout(120)
class RepeatsHarnessTest {

    @TempDir
    Path dir;

    /** Rank 0's timed loops in order: the collective of the first call after each barrier. */
    private final List<String> order = new ArrayList<>();
    private volatile boolean afterBarrier;
    /** Read the machine as steady (a VM's real changes would measure a size again and spend the disturbances). */
    private boolean steadyMachine;
    /** Rank 0 collects during this many of the all-reduce's next timed loops. */
    private volatile int collectIn;

    private final class Recording extends ForwardingCommunicator {
        Recording(final Communicator inner) {
            super(inner);
        }

        private void note(final String name, final long count) {
            if (rank() == 0 && count > 1 && afterBarrier) {
                order.add(name);
                afterBarrier = false;
                if ("AR".equals(name) && collectIn > 0) {
                    collectIn--;
                    System.gc(); // a collection during this timed loop: it is timed again
                }
            }
        }

        @Override
        public void barrier() {
            if (rank() == 0) {
                afterBarrier = true;
            }
            super.barrier();
        }

        @Override
        public void allReduce(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                              final ReduceOp op) {
            note("AR", count);
            super.allReduce(send, recv, count, type, op);
        }

        @Override
        public void broadcast(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                              final int root) {
            note("BC", count);
            super.broadcast(send, recv, count, type, root);
        }
    }

    private ResultSet run(final Benchmark b, final StringWriter progress) throws IOException {
        final MemoryStore store = new MemoryStore(2, java.time.Duration.ofSeconds(20));
        final List<ExitCode> codes = ThreadCommunicator.run(2, ThreadCommunicator.shared(2), comm -> {
            final RunContext ctx = new RunContext("t", Path.of("t.yaml"), "job3", new cctk.results.RankInfo(
                comm.rank(), "h", 1, 0, 0, "cpu", "default"), dir, Map.of());
            final Harness h = new Harness(new Recording(comm), store, HarnessTest.spec(b), ctx,
                new PrintWriter(progress));
            return (steadyMachine ? h.machineProbe(c -> new CrossCore.Reading(50, 24, 49, false, null)) : h).run();
        });
        assertThat(codes).containsOnly(ExitCode.OK);
        return ResultReader.read(List.of(HarnessTest.file(dir, ".json")));
    }

    private static Benchmark twoCollectivesTwoSizes() {
        return HarnessTest.bench(List.of(CollectiveType.ALL_REDUCE, CollectiveType.BROADCAST),
            List.of(DType.FLOAT32), List.of(ReduceOp.SUM), List.of(new MessageSize(4096, false),
                new MessageSize(8192, false)), 1, Benchmark.InPlace.OUT_OF_PLACE);
    }

    @Test
    void repeatsAreInterleavedWithTheOtherPointsOfTheirSize() throws IOException {
        run(twoCollectivesTwoSizes().withRepeats(3, false), new StringWriter());
        // per size: repeat 1 in plan order, repeat 2 reversed, repeat 3 in plan order; then the next size
        assertThat(order).containsExactly("AR", "BC", "BC", "AR", "AR", "BC", "AR", "BC", "BC", "AR", "AR", "BC");
    }

    @Test
    void aRepeatStillDisturbedAfterItsRetimingsIsReplacedByOneMore() throws IOException {
        // the all-reduce's first repeat at 4 KiB collects in its loop and all three re-timings: still disturbed
        collectIn = 1 + MeasureStep.MAX_RETIMES;
        steadyMachine = true;
        final ResultSet set = run(twoCollectivesTwoSizes().withRepeats(3, true), new StringWriter());
        final Result ar = set.results().stream().filter(r -> r.collective().equals("all_reduce")
            && r.sizeBytes() == 4096).findFirst().orElseThrow();
        // (a compile in the same loop wins the vote over the collection: "jit 1, gc 2" is as good as "gc 3")
        assertThat(ar.how().retimed()).containsPattern("gc \\d").contains("disturbed repeat").contains("left out");
        assertThat(ar.how().repeats()).as("the figures rest on 3 undisturbed repeats").isEqualTo(3);
        // 4 loops for the disturbed repeat, one each for the two others and for the one that replaced it, at least
        assertThat(ar.how().attempts()).isGreaterThanOrEqualTo(7);
        // the replacement ran after the size's other rows: the 4 KiB block's timed loops end with an all-reduce
        final int firstBlock = set.results().stream().filter(r -> r.sizeBytes() == 4096)
            .mapToInt(r -> r.how().attempts()).sum();
        assertThat(order.subList(0, firstBlock)).endsWith("AR");
        assertThat(ar.wrong()).isZero();
    }

    @Test
    void everyRowSaysHowItWasObtained() throws IOException {
        final Benchmark b = twoCollectivesTwoSizes();
        assertThat(b.repeats()).isEqualTo(Benchmark.DEFAULT_REPEATS).isEqualTo(3);
        assertThat(b.retime()).isTrue();
        final ResultSet set = run(b, new StringWriter());
        assertThat(order.size()).isEqualTo(set.results().stream().mapToInt(r -> r.how().attempts()).sum());
        assertThat(set.results()).hasSize(4).allSatisfy(r -> {
            final Result.Obtained how = r.how();
            assertThat(how.repeats()).isEqualTo(3);
            assertThat(how.attempts()).isGreaterThanOrEqualTo(3);
            assertThat(how.repeatMinUs()).isLessThanOrEqualTo(r.timeUs());
            assertThat(how.repeatMaxUs()).isGreaterThanOrEqualTo(r.timeUs());
            assertThat(how.spreadPct()).isFinite().isGreaterThanOrEqualTo(0);
            assertThat(how.firstTimeUs()).isPositive();
            assertThat(how.attempts() > 3).isEqualTo(how.retimed() != null && !how.retimed().contains("kept"));
            assertThat(r.minUs()).isLessThanOrEqualTo(r.timeUs());
            assertThat(r.wrong()).isZero();
        });
        final String text = Files.readString(HarnessTest.file(dir, ".txt"));
        assertThat(text).contains("# each row: up to 1 warm-up", "3 timed loop(s) interleaved", "| spread: ",
            "| loops: ", "# Time: rank 0 started in ");
        // the machine, read by rank 0 before the warm-up and after the sweep, in the text and read back from the JSON
        assertThat(text).containsPattern("# machine: a 1 MiB round trip between two cores \\(two threads of rank 0\\)"
            + " took \\d+ µs before the warm-up").containsPattern("# Machine: a 1 MiB round trip between two cores"
            + " \\(two threads of rank 0\\) took \\d+ µs after the sweep, \\d+ µs before the warm-up");
        assertThat(java.util.Arrays.stream(cctk.results.CrossCoreReadings.of(set.runs().get(0))).boxed().toList())
            .hasSize(2).allSatisfy(us -> assertThat(us).isPositive());
        final String csv = Files.readString(HarnessTest.file(dir, ".csv"));
        assertThat(csv.lines().findFirst().orElseThrow()).endsWith(
            "repeats,iters,attempts,spread_pct,repeat_min_us,repeat_max_us,first_time_us,retimed,time_across_ranks,"
            + "crosscore_us");
        // the default time across ranks, named in every file
        assertThat(set.results()).allSatisfy(r -> assertThat(r.how().timeAcrossRanks()).isEqualTo("max"));
        // then the machine read after the row's size (empty where the reading was disturbed)
        assertThat(csv.lines().skip(1)).allSatisfy(l -> assertThat(l).matches(".*,max,(\\d+(\\.\\d)?)?"));
        assertThat(text).contains("# time: us per call, mean per rank, max over ranks (time_across_ranks: max)");
        assertThat(set.runs().get(0).args()).containsEntry("time_across_ranks", "max");
    }

    /** time_across_ranks: mean: the txt header, every CSV and JSON row and the JSON's args say so, and read back. */
    @Test
    void theMeanOverRanksIsNamedInEveryFile() throws IOException {
        final StringWriter progress = new StringWriter();
        final ResultSet set = run(twoCollectivesTwoSizes().withRepeats(1, false)
            .withTimeAcrossRanks(Benchmark.TimeAcrossRanks.MEAN), progress);
        assertThat(set.results()).hasSize(4).allSatisfy(r -> {
            assertThat(r.how().timeAcrossRanks()).isEqualTo("mean");
            assertThat(r.minUs()).isLessThanOrEqualTo(r.timeUs());
            assertThat(r.p99Us()).isGreaterThanOrEqualTo(r.timeUs() * 0.999);
        });
        assertThat(set.runs().get(0).args()).containsEntry("time_across_ranks", "mean");
        assertThat(Files.readString(HarnessTest.file(dir, ".txt"))).contains("# time: us per call, mean per rank,"
            + " mean over ranks (time_across_ranks: mean, nccl-tests' default)");
        final List<String> csv = Files.readAllLines(HarnessTest.file(dir, ".csv"));
        assertThat(csv.get(0)).endsWith(",time_across_ranks,crosscore_us");
        assertThat(csv.subList(1, csv.size())).hasSize(4).allSatisfy(l -> assertThat(l).matches(
            ".*,mean,(\\d+(\\.\\d)?)?"));
        assertThat(Files.readString(HarnessTest.file(dir, ".json"))).contains("\"time_across_ranks\": \"mean\"");
    }

    @Test
    void rawMeasurementKeepsEveryFirstLoop() throws IOException {
        final Benchmark b = HarnessTest.bench(List.of(CollectiveType.ALL_GATHER), List.of(DType.FLOAT32),
            List.of(ReduceOp.SUM), List.of(new MessageSize(4096, false)), 1, Benchmark.InPlace.BOTH)
            .withRepeats(2, false);
        final ResultSet set = run(b, new StringWriter());
        assertThat(set.results()).hasSize(2).allSatisfy(r -> {
            assertThat(r.how().repeats()).isEqualTo(2);
            assertThat(r.how().attempts()).isEqualTo(2);
            assertThat(r.how().retimed()).isNull();
        });
        assertThat(Files.readString(HarnessTest.file(dir, ".txt"))).contains("raw: no loop timed again");
        assertThat(set.runs().get(0).args()).containsEntry("repeats", 2L).containsEntry("retime", false);
    }
}
