package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.CsvRows;
import cctk.ExitCode;
import cctk.bench.fixture.ThreadCommunicator;
import cctk.comm.CollectiveType;
import cctk.comm.DType;
import cctk.comm.MemoryStore;
import cctk.comm.ReduceOp;
import cctk.spec.Benchmark;
import cctk.spec.JobSpec;
import cctk.spec.MessageSize;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(120)
class HarnessTest {

    @TempDir
    Path dir;

    static Benchmark bench(final List<CollectiveType> colls, final List<DType> types, final List<ReduceOp> ops,
                           final List<MessageSize> sizes, final int checkIters, final Benchmark.InPlace inPlace) {
        return new Benchmark(List.of("threads"), List.of(1), colls, sizes, types, ops, 1, 2, checkIters, inPlace,
            0, new Benchmark.Imbalance(2.0, null), 30, 0);
    }

    static JobSpec spec(final Benchmark b) {
        return new JobSpec(null, null, null, null, Map.of(), Map.of(), b, List.of());
    }

    /** Runs the harness on W threads; returns the exit codes in rank order. */
    MemoryStore store;

    List<ExitCode> run(final int world, final ThreadCommunicator.Shared shared, final Benchmark b,
                       final StringWriter progress) {
        return run(world, shared, b, progress, PointHook.NONE);
    }

    List<ExitCode> run(final int world, final ThreadCommunicator.Shared shared, final Benchmark b,
                       final StringWriter progress, final PointHook hook) {
        return run(world, shared, b, progress, hook, null);
    }

    List<ExitCode> run(final int world, final ThreadCommunicator.Shared shared, final Benchmark b,
                       final StringWriter progress, final PointHook hook, final StringWriter console) {
        store = new MemoryStore(world, java.time.Duration.ofSeconds(20));
        return ThreadCommunicator.run(world, shared, comm -> {
            final RunContext ctx = new RunContext("0.1.0-test", Path.of("configs/t.yaml"), "job7",
                new cctk.results.RankInfo(comm.rank(), "host-" + comm.rank(), 1, 0, comm.rank(), "cpu", "default"), dir,
                Map.of("NCCL_DEBUG", "WARN"), hook, console == null || comm.rank() != 0 ? null
                : new PrintWriter(console));
            return new Harness(comm, store, spec(b), ctx, new PrintWriter(progress)).run();
        });
    }

    /** The result file of {@code dir} that ends with {@code suffix}. */
    static Path file(final Path dir, final String suffix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(suffix)).findFirst().orElseThrow();
        }
    }

    /** The rows of the run's CSV in {@code dir}, each by column name. */
    static List<Map<String, String>> csv(final Path dir) throws IOException {
        return CsvRows.inDirectory(dir);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void everyCollectiveTypeAndOperatorChecksOutExactly(final int world) throws IOException {
        final Benchmark b = bench(Arrays.asList(CollectiveType.values()), Arrays.asList(DType.values()),
            Arrays.asList(ReduceOp.values()), List.of(new MessageSize(1000, false), new MessageSize(96, true)), 2,
            Benchmark.InPlace.BOTH);
        final StringWriter progress = new StringWriter();
        assertThat(run(world, ThreadCommunicator.shared(world), b, progress)).containsOnly(ExitCode.OK);
        final List<Map<String, String>> rows = csv(dir);
        // per type and size: 3 reducing x 5 ops + 5 others = 20 rows x 2 layouts; barrier once
        assertThat(rows).hasSize(8 * 2 * 20 * 2 + 1);
        final List<Map<String, String>> measured = rows.stream()
            .filter(r -> r.get("skipped").isEmpty() && !r.get("collective").equals("barrier")).toList();
        assertThat(measured).allSatisfy(r -> assertThat(r.get("wrong")).as(CsvRows.show(r)).isEqualTo("0"));
        // only alltoallv in-place (and sizes that round to nothing) are skipped
        assertThat(rows).filteredOn(r -> !r.get("skipped").isEmpty())
            .allSatisfy(r -> assertThat(r.get("collective") + r.get("in_place") + r.get("skipped"))
                .matches("alltoallvtrue.*|.*rounds down to 0.*"));
        assertThat(measured.size()).isGreaterThan(500);
        assertThat(progress.toString()).contains("all_reduce float32 sum 1000 B (1/", "barrier (321/321)");
    }

    @Test
    void oneFlippedElementIsCountedAndFailsTheRun() throws IOException {
        final ThreadCommunicator.Shared shared = ThreadCommunicator.shared(3);
        shared.corruptRank = 1;
        final Benchmark b = bench(List.of(CollectiveType.ALL_REDUCE, CollectiveType.ALL_GATHER),
            List.of(DType.FLOAT32), List.of(ReduceOp.SUM), List.of(new MessageSize(4096, false)), 1,
            Benchmark.InPlace.OUT_OF_PLACE);
        assertThat(run(3, shared, b, new StringWriter())).containsOnly(ExitCode.FAILED);
        final List<Map<String, String>> rows = csv(dir);
        assertThat(rows).extracting(r -> r.get("collective") + "=" + r.get("wrong"))
            .containsExactly("all_reduce=0", "all_gather=1");
        assertThat(store.everSet()).isNotEmpty().allSatisfy(k -> assertThat(k).startsWith("bench/job7/threads/w3/"));
        assertThat(store.keys()).as("what the run left in the store").isEmpty();
    }

    @Test
    void aSizeThatDoesNotFitIsSkippedAndTheSweepGoesOn() throws IOException {
        final ThreadCommunicator.Shared shared = ThreadCommunicator.shared(2);
        shared.maxAllocBytes = 64 * 1024;
        shared.limitedRank = 1;
        final Benchmark b = bench(List.of(CollectiveType.ALL_REDUCE), List.of(DType.INT32), List.of(ReduceOp.MAX),
            List.of(new MessageSize(1024, false), new MessageSize(1 << 20, false), new MessageSize(2048, false)), 1,
            Benchmark.InPlace.BOTH);
        final StringWriter progress = new StringWriter();
        // rows skipped because the environment lacks room fail the run (exit 3); the rows that fit are all kept
        assertThat(run(2, shared, b, progress)).containsOnly(ExitCode.ENVIRONMENT);
        assertThat(progress.toString()).contains("rows were skipped because their buffers did not fit (rank 1: ");
        final List<Map<String, String>> rows = csv(dir);
        assertThat(rows)
            .extracting(r -> r.get("size_bytes") + ":" + (r.get("skipped").isEmpty() ? r.get("wrong") : "skipped"))
            .containsExactly("1024:0", "1024:0", "1048576:skipped", "1048576:skipped", "2048:0", "2048:0");
        assertThat(rows.get(2).get("skipped")).startsWith("rank 1: cannot allocate 1048576 bytes");
    }

    @Test
    void aFailureMidSweepStillLeavesEverythingMeasured() throws IOException {
        final ThreadCommunicator.Shared shared = ThreadCommunicator.shared(2);
        shared.crashRank = 0;
        final Benchmark b = bench(List.of(CollectiveType.ALL_REDUCE), List.of(DType.FLOAT64),
            List.of(ReduceOp.SUM), List.of(new MessageSize(64, false), new MessageSize(128, false),
                new MessageSize(256, false), new MessageSize(512, false)), 1, Benchmark.InPlace.OUT_OF_PLACE);
        // rank 0 loses its peers at its first all-reduce of the third point
        final PointHook crashInThirdPoint = (rank, sizesDone) -> {
            if (rank == 0 && sizesDone == 2) {
                shared.crashAtCall = 0;
            }
        };
        assertThatThrownBy(() -> run(2, shared, b, new StringWriter(), crashInThirdPoint))
            .isInstanceOf(CctkException.class);
        final List<Map<String, String>> rows = csv(dir);
        assertThat(rows).extracting(r -> r.get("size_bytes")).containsExactly("64", "128");
        try (Stream<Path> s = Files.list(dir)) {
            final Path json = s.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
            assertThat(Files.readString(json)).contains("\"status\": \"INCOMPLETE\"", "simulated");
        }
    }

    @Test
    void theJitWarmsUpBeforeTheSweepEndingOnTheSameRoundOnEveryRank() throws IOException {
        final List<MessageSize> sizes = List.of(new MessageSize(64, false), new MessageSize(64 << 10, false));
        final Benchmark b0 = bench(List.of(CollectiveType.ALL_REDUCE, CollectiveType.ALL_GATHER),
            List.of(DType.FLOAT32), List.of(ReduceOp.SUM), sizes, 1, Benchmark.InPlace.OUT_OF_PLACE);
        final Benchmark b = new Benchmark(b0.backends(), b0.taskCounts(), b0.collectives(), b0.sizes(), b0.dtypes(),
            b0.ops(), 1, 2, 1, b0.inPlace(), 0, b0.alltoallv(), 30, 2);
        final StringWriter progress = new StringWriter();
        final long start = System.nanoTime();
        // ranks that disagreed on the round to stop after would wait on each other until the deadline
        assertThat(run(3, ThreadCommunicator.shared(3), b, progress)).containsOnly(ExitCode.OK);
        assertThat((System.nanoTime() - start) / 1e9).isLessThan(20);
        final java.util.regex.Matcher m = java.util.regex.Pattern
            .compile("JIT warm-up: (\\d+) round\\(s\\) in ([0-9.]+) s").matcher(progress.toString());
        assertThat(m.find()).as(progress.toString()).isTrue();
        assertThat(Integer.parseInt(m.group(1))).isBetween(1, 40);
        assertThat(Double.parseDouble(m.group(2))).isLessThan(2 + 5);
        assertThat(csv(dir)).hasSize(4);
        try (Stream<Path> s = Files.list(dir)) {
            final List<Path> files = s.toList();
            final Path txt = files.stream().filter(p -> p.toString().endsWith(".txt")).findFirst().orElseThrow();
            final Path json = files.stream().filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
            assertThat(Files.readString(txt)).contains("# jit warm-up before timing: " + m.group(1) + " round(s)",
                "# JIT during the sweep: rank 0 waited for its JIT compiler before ");
            assertThat(Files.readString(json)).contains("\"jit_warmup\": {", "\"rounds\": " + m.group(1) + ",",
                "\"jit\": {", "\"points_waited\": ", "\"points_retimed\": ", "\"points_still_disturbed\": ");
            assertThat(progress.toString()).contains("cctk: JIT during the sweep: rank 0 waited");
        }
    }

    @Test
    void theJitLineFollowsTheLastRowOnTheRowsStream() {
        // the rows go to standard output, and the JIT line went to standard error: the launcher, reading both, could
        // print it before the last row
        final Benchmark b = bench(List.of(CollectiveType.ALL_REDUCE, CollectiveType.BARRIER), List.of(DType.FLOAT32),
            List.of(ReduceOp.SUM), List.of(new MessageSize(64, false)), 1, Benchmark.InPlace.OUT_OF_PLACE);
        final StringWriter progress = new StringWriter();
        final StringWriter console = new StringWriter();
        assertThat(run(2, ThreadCommunicator.shared(2), b, progress, PointHook.NONE, console))
            .containsOnly(ExitCode.OK);
        final List<String> lines = console.toString().lines().toList();
        assertThat(lines.get(lines.size() - 1)).startsWith("cctk: JIT during the sweep: ");
        assertThat(lines.get(lines.size() - 2)).contains("barrier");
        assertThat(progress.toString()).doesNotContain("JIT during the sweep");
    }

    @Test
    void aZeroBudgetSkipsTheJitWarmUp() throws IOException {
        final Benchmark b = bench(List.of(CollectiveType.ALL_REDUCE), List.of(DType.FLOAT32), List.of(ReduceOp.SUM),
            List.of(new MessageSize(64, false)), 1, Benchmark.InPlace.OUT_OF_PLACE);
        final StringWriter progress = new StringWriter();
        assertThat(run(2, ThreadCommunicator.shared(2), b, progress)).containsOnly(ExitCode.OK);
        assertThat(progress.toString()).contains("cctk: JIT warm-up: none");
        assertThat(csv(dir)).hasSize(1);
    }

    @Test
    void iterationStatsTakeTheSlowestRank() {
        final IterationStats s = IterationStats.of(List.of(new double[] {1, 2, 3, 10}, new double[] {4, 1, 1, 1}));
        // rank 0 is the slowest (mean 4): its own iterations give min, p50, p99 and cv, so min <= time <= max
        assertThat(s.timeUs()).isEqualTo(4.0);
        assertThat(s.minUs()).isEqualTo(1.0);
        assertThat(s.p50Us()).isEqualTo(2.0);
        assertThat(s.p99Us()).isEqualTo(10.0);
        assertThat(s.cvPct()).isCloseTo(100 * Math.sqrt(50.0 / 3) / 4, org.assertj.core.api.Assertions.within(1e-9));
        // rank 0 is steady at 5; rank 1 has one slow iteration of 9: the per-iteration maxima over ranks
        // (9, 5, 5, 5) have a min of 5 and a mean of 6, above the reported 5; the slowest rank's own never are
        final IterationStats skewed = IterationStats.of(List.of(new double[] {5, 5, 5, 5}, new double[] {9, 1, 1, 1}));
        assertThat(skewed.timeUs()).isEqualTo(5.0);
        assertThat(skewed.minUs()).isLessThanOrEqualTo(skewed.timeUs());
    }

    /** The two definitions on the same times: the slowest rank's mean (max) and the mean of the ranks' (mean). */
    @Test
    void iterationStatsTakeTheMaxOrTheMeanOverRanksAsAsked() {
        final List<double[]> perRank = List.of(new double[] {1, 2, 3, 10}, new double[] {4, 1, 1, 1});
        assertThat(IterationStats.of(perRank, Benchmark.TimeAcrossRanks.MAX)).isEqualTo(IterationStats.of(perRank));
        final IterationStats mean = IterationStats.of(perRank, Benchmark.TimeAcrossRanks.MEAN);
        // per-rank means 4 and 1.75: the mean over ranks is 2.875, where the max says 4
        assertThat(mean.timeUs()).isEqualTo(2.875);
        // iteration by iteration over ranks: 2.5, 1.5, 2, 5.5
        assertThat(mean.minUs()).isEqualTo(1.5);
        assertThat(mean.p50Us()).isEqualTo(2.0);
        assertThat(mean.p99Us()).isEqualTo(5.5);
        assertThat(IterationStats.of(perRank).timeUs()).isEqualTo(4.0);
    }
}
