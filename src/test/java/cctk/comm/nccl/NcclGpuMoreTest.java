package cctk.comm.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.CsvRows;
import cctk.ExitCode;
import cctk.bench.Harness;
import cctk.bench.RunContext;
import cctk.comm.CollectiveType;
import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.MemoryStore;
import cctk.comm.ReduceOp;
import cctk.spec.Benchmark;
import cctk.spec.JobSpec;
import cctk.spec.MessageSize;
import cctk.spec.NcclOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What world 1 on a GPU can still check beyond {@link NcclGpuTest}, and the part that needs two GPUs. World 1
 * makes every reduction the identity, so NCCL's own log (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=COLL, NCCL_DEBUG_FILE,
 * set by scripts/device-gpu-test.sh before the JVM starts) is read back and the datatype and op of every call
 * compared with what cctk asked for. Also: a barrier in graph timing mode, a size that cannot fit skipped with
 * its reason, and (tag gpu2, >= 2 GPUs) world 2 as two ranks in one process, one GPU each, with 0 wrong elements.
 * Not yet run on a GPU.
 */
@Tag("gpu")
@Timeout(1800)
class NcclGpuMoreTest {

    /** One NCCL COLL line: "AllReduce: opCount 3 sendbuff ... count 256 datatype 7 op 0 root 0 ...". */
    private static final Pattern COLL = Pattern.compile("(\\w+): opCount (\\w+) .*?count (\\d+) datatype (\\d+) op"
            + " (\\d+)");

    @TempDir
    Path dir;

    @BeforeAll
    static void needsTheGpuStack() {
        NcclGpuTest.needsTheGpuStack();
    }

    private static JobSpec spec(final List<CollectiveType> colls, final List<DType> types, final List<ReduceOp> ops,
                                final List<MessageSize> sizes, final NcclConfig.Timing timing, final int world) {
        final Benchmark b = new Benchmark(List.of("nccl"), List.of(world), colls, sizes, types, ops, 2, 5, 1,
                Benchmark.InPlace.BOTH, 0, new Benchmark.Imbalance(4.0, null), 120,
                Benchmark.DEFAULT_JIT_WARMUP_SECONDS);
        final NcclOptions nccl = new NcclOptions("nccl", null, List.of(), false, timing, NcclOptions.Profiler.NONE);
        return new JobSpec(null, null, null, null, Map.of(), Map.of(), b, List.of(), nccl);
    }

    /** Runs rank {@code rank} of {@code world} on GPU {@code rank}; the rows of its CSV (rank 0) or null. */
    private List<Map<String, String>> rank(final JobSpec spec, final MemoryStore store, final int rank, final int world,
                                final Path out) throws IOException {
        final NcclSetup.Request req = new NcclSetup.Request(rank, world, rank, store, "t/", "nccl",
                spec.nccl().config(false), Duration.ofSeconds(120), cctk.Environment.process());
        final StringWriter progress = new StringWriter();
        try (NcclCommunicator comm = NcclSetup.open(req)) {
            final String line = NcclSetup.describe(comm, cctk.Environment.process());
            final RunContext ctx = new RunContext("gpu-test", Path.of("gpu.yaml"), "gpu",
                    new cctk.results.RankInfo(rank, "localhost", 0, rank, 0, line, "default"), out, Map.of());
            assertThat(new Harness(comm, store, spec, ctx, new PrintWriter(progress)).run())
                    .as(progress.toString()).isEqualTo(ExitCode.OK);
        }
        if (rank != 0) {
            return null;
        }
        try (Stream<Path> s = Files.list(out)) {
            final Path f = s.filter(p -> p.toString().endsWith(".csv")).findFirst().orElseThrow();
            Files.copy(f, Path.of(System.getProperty("cctk.gpu.csvDir", out.toString())).resolve("more-"
                    + f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return CsvRows.of(f);
        }
    }

    @Test
    void ncclsOwnLogShowsTheDatatypeAndOpCctkAskedFor() throws IOException {
        final String file = System.getenv("NCCL_DEBUG_FILE");
        Assumptions.assumeTrue(file != null && String.valueOf(System.getenv("NCCL_DEBUG_SUBSYS")).contains("COLL"),
                "needs NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=COLL NCCL_DEBUG_FILE (scripts/device-gpu-test.sh sets them)");
        final List<String> asked = new ArrayList<>();
        final MemoryStore store = new MemoryStore(1, Duration.ofSeconds(120));
        final JobSpec s = spec(List.of(CollectiveType.ALL_REDUCE), List.of(DType.FLOAT32), List.of(ReduceOp.SUM),
                List.of(new MessageSize(1024, false)), NcclConfig.Timing.BLOCKING, 1);
        try (NcclCommunicator comm = NcclSetup.open(new NcclSetup.Request(0, 1, 0, store, "log/", "nccl",
                s.nccl().config(false), Duration.ofSeconds(120), cctk.Environment.process()))) {
            final CommBuffer a = comm.allocate(1024);
            final CommBuffer b = comm.allocate(1024);
            for (final DType t : DType.values()) {
                for (final ReduceOp o : ReduceOp.values()) {
                    final long count = 1024 / t.bytes();
                    comm.allReduce(a, b, count, t, o);
                    asked.add("AllReduce " + count + " " + NcclTypes.dataType(t) + " " + NcclTypes.redOp(o));
                    comm.reduceScatter(a, b, count, t, o);
                    asked.add("ReduceScatter " + count + " " + NcclTypes.dataType(t) + " " + NcclTypes.redOp(o));
                }
                comm.synchronize();
            }
        }
        final List<String> logged = new ArrayList<>();
        final Path log = Path.of(file.replace("%h", "").replace("%p", "")).getParent();
        try (Stream<Path> files = Files.list(log)) {
            for (final Path f : (Iterable<Path>) files.filter(p -> p.getFileName().toString().startsWith("coll-log"))
                    ::iterator) {
                for (final String line : Files.readAllLines(f)) {
                    final Matcher m = COLL.matcher(line);
                    if (m.find() && (m.group(1).equals("AllReduce") || m.group(1).equals("ReduceScatter"))) {
                        logged.add(m.group(1) + " " + m.group(3) + " " + m.group(4) + " " + m.group(5));
                    }
                }
            }
        }
        // describe() made one float32 sum all-reduce of 1 element first
        assertThat(logged).as("NCCL's COLL lines").endsWith(asked.toArray(String[]::new));
    }

    @Test
    void aBarrierInGraphModeIsTimedOutsideCapture() throws IOException {
        final List<Map<String, String>> rows = rank(spec(List.of(CollectiveType.BARRIER, CollectiveType.ALL_REDUCE),
                List.of(DType.FLOAT32), List.of(ReduceOp.SUM), List.of(new MessageSize(4096, false)),
                NcclConfig.Timing.GRAPH, 1), new MemoryStore(1, Duration.ofSeconds(120)), 0, 1, dir);
        assertThat(rows).filteredOn(r -> r.get("collective").equals("barrier")).isNotEmpty()
                .allSatisfy(r -> assertThat(r.get("skipped")).as(CsvRows.show(r)).isEmpty());
    }

    @Test
    void aSizeThatCannotFitIsSkippedWithItsReason() throws IOException {
        final List<Map<String, String>> rows = rank(spec(List.of(CollectiveType.ALL_REDUCE), List.of(DType.FLOAT32),
                List.of(ReduceOp.SUM), List.of(new MessageSize(1L << 22, false), new MessageSize(1L << 42, false)),
                NcclConfig.Timing.PIPELINED, 1), new MemoryStore(1, Duration.ofSeconds(120)), 0, 1, dir);
        assertThat(rows).filteredOn(r -> r.get("size_bytes").equals(String.valueOf(1L << 42)))
                .allSatisfy(r -> assertThat(r.get("skipped")).contains("do not fit"));
        assertThat(rows).filteredOn(r -> r.get("size_bytes").equals(String.valueOf(1L << 22)))
                .allSatisfy(r -> assertThat(r.get("wrong")).isEqualTo("0"));
    }

    /** World 2, one GPU per rank: rank offsets, block offsets and real reductions (world 1 cannot show them). */
    @Test
    @Tag("gpu2")
    void worldTwoOnTwoGpusHasNoWrongElement() throws Exception {
        final MemoryStore store = new MemoryStore(2, Duration.ofSeconds(300));
        final JobSpec s = spec(Arrays.asList(CollectiveType.values()), List.of(DType.FLOAT32, DType.BFLOAT16),
                List.of(ReduceOp.SUM, ReduceOp.MAX, ReduceOp.AVG), List.of(new MessageSize(1024, false),
                        new MessageSize(1L << 20, false), new MessageSize(64L << 20, false)),
                NcclConfig.Timing.PIPELINED, 2);
        final ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            final Future<List<Map<String, String>>> r0 = pool.submit(() -> rank(s, store, 0, 2, dir));
            final Future<List<Map<String, String>>> r1 = pool.submit(() -> rank(s, store, 1, 2,
                    Files.createDirectories(dir.resolve("r1"))));
            final List<Map<String, String>> rows = r0.get();
            r1.get();
            assertThat(rows).isNotEmpty();
            assertThat(rows).filteredOn(r -> r.get("skipped").isEmpty())
                    .allSatisfy(r -> assertThat(r.get("wrong")).as(CsvRows.show(r)).isEqualTo("0"));
            assertThat(rows).filteredOn(r -> !r.get("skipped").isEmpty())
                    .allSatisfy(r -> assertThat(r.get("skipped")).matches(".*(no in-place form|rounds down to 0).*"));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFreedDeviceBufferGoesBackAtOnceAndRefusesUse() {
        final MemoryStore store = new MemoryStore(1, Duration.ofSeconds(120));
        final JobSpec s = spec(List.of(CollectiveType.ALL_REDUCE), List.of(DType.FLOAT32), List.of(ReduceOp.SUM),
                List.of(new MessageSize(1024, false)), NcclConfig.Timing.BLOCKING, 1);
        try (NcclCommunicator comm = NcclSetup.open(new NcclSetup.Request(0, 1, 0, store, "free/", "nccl",
                s.nccl().config(false), Duration.ofSeconds(120), cctk.Environment.process()))) {
            final long before = comm.liveBytes();
            final CommBuffer a = comm.allocate(64L << 20);
            assertThat(comm.liveBytes()).isEqualTo(before + (64L << 20));
            final CommBuffer slice = a.slice(0, 4096);
            comm.free(a);
            assertThat(comm.liveBytes()).isEqualTo(before);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> comm.allReduce(slice, slice, 1024, DType.FLOAT32,
                    ReduceOp.SUM)).isInstanceOf(IllegalStateException.class).hasMessageContaining("after it was freed");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> comm.free(a))
                    .isInstanceOf(cctk.CctkException.class);
        }
    }
}
