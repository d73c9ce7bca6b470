package cctk.comm.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.CsvRows;
import cctk.ExitCode;
import cctk.bench.Harness;
import cctk.bench.RunContext;
import cctk.comm.CollectiveType;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * World 1 on the one GPU of the device machine: every collective, dtype, operator and timing mode through the
 * real harness, 0 wrong elements. Needs a GPU with its driver, libcudart of the preset's major and libnccl.so.2;
 * excluded by default, run with {@code mvn -Pgpu test -Dtest=NcclGpuTest} (scripts/device-gpu-test.sh).
 * {@code -Dcctk.gpu.maxBytes} caps the float32 sweep (default 1 GiB), {@code -Dcctk.gpu.dtypeMaxBytes} the sweep of
 * every dtype and operator (default 4 MiB: the host-side fill and check of 8 types x 5 ops dominate).
 */
@Tag("gpu")
@Timeout(1800)
class NcclGpuTest {

    @TempDir
    Path dir;

    /** Skips without a usable GPU stack, unless -Dcctk.gpu.required=true (the device script) makes that a failure. */
    @org.junit.jupiter.api.BeforeAll
    static void needsTheGpuStack() {
        try {
            NcclLibraries.load(cctk.Environment.process(), null);
        } catch (cctk.CctkException e) {
            if (Boolean.getBoolean("cctk.gpu.required")) {
                throw e;
            }
            org.junit.jupiter.api.Assumptions.abort("no GPU stack here: " + e.getMessage());
        }
    }

    private static List<MessageSize> sizes(final long max) {
        final List<MessageSize> out = new ArrayList<>();
        for (long s = 4; s <= max; s *= 4) {
            out.add(new MessageSize(s, false));
        }
        return out;
    }

    private List<Map<String, String>> run(final List<CollectiveType> colls, final List<DType> types, final List<ReduceOp> ops,
                               final List<MessageSize> sizes, final NcclConfig.Timing timing) throws IOException {
        final Benchmark b = new Benchmark(List.of("nccl"), List.of(1), colls, sizes, types, ops, 2, 5, 1,
                Benchmark.InPlace.BOTH, 0, new Benchmark.Imbalance(4.0, null), 120,
                Benchmark.DEFAULT_JIT_WARMUP_SECONDS);
        final NcclOptions nccl = new NcclOptions("nccl", null, List.of(), false, timing, NcclOptions.Profiler.NONE);
        final JobSpec spec = new JobSpec(null, null, null, null, Map.of(), Map.of(), b, List.of(), nccl);
        final MemoryStore store = new MemoryStore(1, Duration.ofSeconds(120));
        final NcclSetup.Request req = new NcclSetup.Request(0, 1, 0, store, "t/", "nccl", nccl.config(false),
                Duration.ofSeconds(120), cctk.Environment.process());
        final StringWriter progress = new StringWriter();
        try (NcclCommunicator comm = NcclSetup.open(req)) {
            final String line = NcclSetup.describe(comm, cctk.Environment.process());
            System.out.println("cctk gpu test: " + line);
            assertThat(line).startsWith("gpu 0 ").contains(" nccl 2.");
            final RunContext ctx = new RunContext("gpu-test", Path.of("gpu.yaml"), "gpu",
                    new cctk.results.RankInfo(0, "localhost", 0, 0, 0, line, "default"), dir, Map.of());
            assertThat(new Harness(comm, store, spec, ctx, new PrintWriter(progress)).run())
                    .as(progress.toString()).isEqualTo(ExitCode.OK);
        }
        try (Stream<Path> s = Files.list(dir)) {
            final Path f = s.filter(p -> p.toString().endsWith(".csv")).findFirst().orElseThrow();
            final List<Map<String, String>> rows = CsvRows.of(f);
            Files.copy(f, Path.of(System.getProperty("cctk.gpu.csvDir", dir.toString()))
                    .resolve(timing.specName() + "-" + f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return rows;
        }
    }

    private static void assertAllRight(final List<Map<String, String>> rows) {
        assertThat(rows).isNotEmpty();
        assertThat(rows).filteredOn(r -> r.get("skipped").isEmpty())
                .allSatisfy(r -> assertThat(r.get("wrong")).as(CsvRows.show(r)).isEqualTo("0"));
        assertThat(rows).filteredOn(r -> !r.get("skipped").isEmpty())
                .allSatisfy(r -> assertThat(r.get("skipped")).matches(".*(no in-place form|rounds down to 0|do not fit).*"));
    }

    @Test
    void everyCollectiveInFloat32UpTo1GiB() throws IOException {
        final long max = Long.getLong("cctk.gpu.maxBytes", 1L << 30);
        assertAllRight(run(Arrays.asList(CollectiveType.values()), List.of(DType.FLOAT32), List.of(ReduceOp.SUM),
                sizes(max), NcclConfig.Timing.PIPELINED));
    }

    @Test
    void everyDtypeAndOperatorUpTo4MiB() throws IOException {
        assertAllRight(run(Arrays.asList(CollectiveType.values()), Arrays.asList(DType.values()),
                Arrays.asList(ReduceOp.values()), sizes(Long.getLong("cctk.gpu.dtypeMaxBytes", 4L << 20)),
                NcclConfig.Timing.PIPELINED));
    }

    @ParameterizedTest
    @EnumSource(NcclConfig.Timing.class)
    void everyTimingModeMeasuresAndChecks(final NcclConfig.Timing timing) throws IOException {
        final List<Map<String, String>> rows = run(List.of(CollectiveType.ALL_REDUCE, CollectiveType.ALLTOALL),
                List.of(DType.BFLOAT16), List.of(ReduceOp.SUM), sizes(16L << 20), timing);
        assertAllRight(rows);
        assertThat(rows).filteredOn(r -> r.get("skipped").isEmpty())
                .allSatisfy(r -> assertThat(Double.parseDouble(r.get("time_us"))).isPositive());
    }
}
