package cctk.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.comm.CollectiveType;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.spec.Benchmark;
import cctk.spec.JobSpec;
import cctk.spec.MessageSize;
import cctk.spec.SpecParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(10)
class LocalSpecsTest {

    @TempDir
    Path dir;

    private static LocalSpecs.Flags flags(final List<Integer> nproc, final String backend, final List<String> colls,
                                          final List<String> sizes) {
        return new LocalSpecs.Flags(nproc, backend, colls, sizes, List.of(), List.of(), null, null, null, null, null, null, null, null);
    }

    @Test
    void flagsBecomeTheBenchmark() {
        final JobSpec spec = LocalSpecs.fromFlags(new LocalSpecs.Flags(List.of(2, 4), "tcp",
            List.of("all_reduce", "broadcast"), List.of("4MiB", "512KiB", "64B", "1024"), List.of("bfloat16", "int8"),
            List.of("max", "sum"), 0, 50, 3, "false", Path.of("out/x"), 5, false, 0));
        final Benchmark b = spec.benchmark();
        assertThat(b.taskCounts()).containsExactly(2, 4);
        assertThat(b.backends()).containsExactly("tcp");
        assertThat(b.collectives()).containsExactly(CollectiveType.ALL_REDUCE, CollectiveType.BROADCAST);
        assertThat(b.sizes()).containsExactly(new MessageSize(4 << 20, false), new MessageSize(512 << 10, false),
            new MessageSize(64, false), new MessageSize(1024, true));
        assertThat(b.dtypes()).containsExactly(DType.BFLOAT16, DType.INT8);
        assertThat(b.ops()).containsExactly(ReduceOp.MAX, ReduceOp.SUM);
        assertThat(List.of(b.warmupIters(), b.iters(), b.checkIters())).containsExactly(0, 50, 3);
        assertThat(b.inPlace()).isEqualTo(Benchmark.InPlace.OUT_OF_PLACE);
        assertThat(b.repeats()).isEqualTo(5);
        assertThat(b.retime()).isFalse();
        assertThat(b.windowMillis()).isZero();
        assertThat(spec.job().outputDir()).isEqualTo("out/x");
        assertThat(spec.resources().tasksPerNode()).isEqualTo(4);
        assertThat(spec.cluster().name()).isEqualTo("local");
    }

    @Test
    void withoutFlagsTheDefaultsAreASpecsDefaults() throws IOException {
        final JobSpec flags = LocalSpecs.fromFlags(flags(List.of(), null, List.of(), List.of()));
        final JobSpec minimal = SpecParser.parse(Files.writeString(dir.resolve("m.yaml"),
            "job: {name: run}\nresources: {nodes: 1, tasks_per_node: 2}\n"));
        assertThat(flags.benchmark()).isEqualTo(minimal.benchmark());
        assertThat(flags.job().outputDir()).isEqualTo(minimal.job().outputDir()).isEqualTo("results/run");
    }

    @Test
    void badFlagsAreUsageErrorsNamingTheFlag() {
        assertThatThrownBy(() -> LocalSpecs.fromFlags(flags(List.of(0), "tcp", List.of(), List.of())))
            .isInstanceOf(CctkException.class).hasMessageContaining("--nproc");
        assertThatThrownBy(() -> LocalSpecs.fromFlags(flags(List.of(2), "tcp", List.of(), List.of("4XB"))))
            .isInstanceOf(CctkException.class).hasMessageStartingWith("--sizes: ").hasMessageContaining("4XB");
        assertThatThrownBy(() -> LocalSpecs.fromFlags(flags(List.of(2), "mpi", List.of(), List.of())))
            .hasMessageStartingWith("--backend: unknown backend 'mpi'");
        assertThatThrownBy(() -> LocalSpecs.fromFlags(flags(List.of(2), null, List.of("allreduce"), List.of())))
            .hasMessageStartingWith("--collectives: unknown name 'allreduce'").hasMessageContaining("all_reduce");
        assertThatThrownBy(() -> LocalSpecs.fromFlags(new LocalSpecs.Flags(List.of(2), null, List.of(), List.of(),
            List.of("float31"), List.of(), null, null, null, null, null, null, null, null))).hasMessageStartingWith("--dtypes:");
        assertThatThrownBy(() -> LocalSpecs.fromFlags(new LocalSpecs.Flags(List.of(2), null, List.of(), List.of(),
            List.of(), List.of(), null, 0, null, null, null, null, null, null))).hasMessageStartingWith("--iters: expected 1");
        assertThatThrownBy(() -> LocalSpecs.fromFlags(new LocalSpecs.Flags(List.of(2), null, List.of(), List.of(),
            List.of(), List.of(), null, null, null, null, null, 0, null, null))).hasMessageStartingWith("--repeats: expected 1");
        assertThatThrownBy(() -> LocalSpecs.fromFlags(new LocalSpecs.Flags(List.of(2), null, List.of(), List.of(),
            List.of(), List.of(), null, null, null, "sometimes", null, null, null, null))).hasMessageStartingWith("--in-place:");
        assertThatThrownBy(() -> LocalSpecs.fromFlags(new LocalSpecs.Flags(List.of(2), null, List.of(), List.of(),
            List.of(), List.of(), null, null, null, null, null, null, null, null, "average")))
            .hasMessage("--time-across-ranks: expected max or mean, found 'average'.");
    }

    /** --time-across-ranks: mean (nccl-tests' default) or max (the default, as a spec without the key). */
    @Test
    void theTimeAcrossRanksIsAFlagToo() {
        for (final String t : List.of("mean", "MAX")) {
            final Benchmark b = LocalSpecs.fromFlags(new LocalSpecs.Flags(List.of(2), null, List.of(), List.of(),
                List.of(), List.of(), null, null, null, null, null, null, null, null, t)).benchmark();
            assertThat(b.timeAcrossRanks().specName()).isEqualTo(t.toLowerCase(java.util.Locale.ROOT));
        }
        assertThat(LocalSpecs.fromFlags(flags(List.of(2), null, List.of(), List.of())).benchmark().timeAcrossRanks())
            .isEqualTo(Benchmark.TimeAcrossRanks.MAX);
    }

    @Test
    void freePortsAreFreeAndExitCodesMap() {
        assertThat(LocalLauncher.freePort()).isBetween(1, 65_535);
        assertThat(LocalLauncher.asExitCode(2)).isEqualTo(2);
        assertThat(LocalLauncher.asExitCode(5)).as("inconclusive passes").isEqualTo(5);
        assertThat(LocalLauncher.asExitCode(6)).isEqualTo(3);
        assertThat(LocalLauncher.asExitCode(137)).isEqualTo(3);
        assertThat(LocalLauncher.asExitCode(-1)).isEqualTo(3);
    }
}
