package cctk.results.nccltests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import cctk.results.RankInfo;
import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import cctk.results.inputs.ResultReader;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * nccl-tests' output read as runs, and cctk's runs written in its layout: fixtures in src/test/resources/nccl-tests
 * follow nccl-tests' printf formats and JSON writer (https://github.com/NVIDIA/nccl-tests, src/util.cu and
 * src/common.cu at v2.19.6; the pre-2.13 table as its src/*.cu printed it); see the README there.
 */
@Timeout(60)
class NcclTestsTest {

    @TempDir
    Path dir;

    static Path fixture(final String name) {
        try {
            return Path.of(NcclTestsTest.class.getResource("/nccl-tests/" + name).toURI());
        } catch (final URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static ResultSet read(final Path... files) {
        return ResultReader.read(List.of(files));
    }

    @Test
    void aCurrentLogIsOneRunWithItsWorldHostsIterationsAndBothLayouts() {
        final ResultSet set = read(fixture("all_reduce_perf.txt"));
        assertThat(set.problems()).isEmpty();
        final Run run = set.runs().get(0);
        assertThat(set.runs()).hasSize(1);
        assertThat(run.backend()).isEqualTo("nccl-tests");
        assertThat(run.world()).isEqualTo(8);
        assertThat(run.hosts()).containsExactly("gpu-a01", "gpu-a02");
        assertThat(run.version()).isEqualTo("nccl-tests version 2.19.6");
        assertThat(run.args()).containsEntry("iters", 20L);
        assertThat(set.results()).hasSize(28).allSatisfy(r -> {
            assertThat(r.collective()).isEqualTo("all_reduce");
            assertThat(r.dtype()).isEqualTo("float32");
            assertThat(r.op()).isEqualTo("sum");
            assertThat(r.root()).isEqualTo(-1);
            assertThat(r.wrong()).isZero();
        });
        final Result first = set.results().get(0);
        assertThat(List.of(first.sizeBytes(), first.count())).containsExactly(8L, 2L);
        assertThat(first.inPlace()).isFalse();
        assertThat(first.timeUs()).isEqualTo(28.50);
        assertThat(set.results().get(1).inPlace()).isTrue();
        final Result last = set.results().get(26);
        assertThat(last.sizeBytes()).isEqualTo(536_870_912L);
        assertThat(last.busBw()).isBetween(170.0, 180.0);
        assertThat(last.cvPct()).isNaN();
    }

    @Test
    void aLogBeforeTwoThirteenIsNamedByItsFileAndHasNoWrongCount() {
        final ResultSet set = read(fixture("all_gather_perf-2.12.log"));
        assertThat(set.problems()).isEmpty();
        assertThat(set.runs()).singleElement().satisfies(r -> {
            assertThat(r.world()).isEqualTo(4);
            assertThat(r.hosts()).containsExactly("dgx1");
            assertThat(r.args()).containsEntry("iters", 20L);
        });
        assertThat(set.results()).hasSize(16).allSatisfy(r -> {
            assertThat(r.collective()).isEqualTo("all_gather");
            assertThat(r.op()).isNull();
            assertThat(r.root()).isEqualTo(-1);
            assertThat(r.wrong()).as("a deviation is no count").isEqualTo(-1);
        });
    }

    @Test
    void perIterationColumnsGiveTheSpread() {
        final ResultSet set = read(fixture("all_reduce_perf-per-iteration.txt"));
        assertThat(set.problems()).isEmpty();
        assertThat(set.runs().get(0).world()).isEqualTo(2);
        final Result r = set.results().get(0);
        assertThat(List.of(r.dtype(), r.op())).containsExactly("bfloat16", "max");
        assertThat(r.cvPct()).isEqualTo(4.5);
        assertThat(r.minUs()).isEqualTo(23.03);
        assertThat(r.p99Us()).isEqualTo(28.49);
        assertThat(set.results().get(1).cvPct()).isEqualTo(5.25);
    }

    @Test
    void aSlurmLogOfTwoTestsIsOneRunOfTwoCollectivesAndKeepsAnInPlaceOnlyRow() {
        final ResultSet set = read(fixture("slurm-812345.out"));
        assertThat(set.problems()).isEmpty();
        assertThat(set.runs()).singleElement().satisfies(r -> assertThat(r.world()).isEqualTo(4));
        assertThat(set.results().stream().map(Result::collective).distinct()).containsExactly("broadcast",
            "reduce_scatter");
        assertThat(set.results()).allSatisfy(r -> assertThat(r.wrong()).as("validation 0: N/A").isEqualTo(-1));
        final List<Result> big = set.results().stream().filter(r -> r.sizeBytes() == 32L << 20).toList();
        assertThat(big).singleElement().satisfies(r -> {
            assertThat(r.inPlace()).isTrue();
            assertThat(r.root()).isZero();
            assertThat(r.timeUs()).isEqualTo(230.5);
        });
    }

    @Test
    void theJsonOfMinusJIsARunWithItsStartSpreadAndNcclEnvironmentOnly() {
        final ResultSet set = read(fixture("all_reduce_perf.json"));
        assertThat(set.problems()).isEmpty();
        final Run run = set.runs().get(0);
        assertThat(run.backend()).isEqualTo("nccl-tests");
        assertThat(run.world()).isEqualTo(4);
        assertThat(run.start()).isEqualTo("2026-03-02T10:15:42");
        assertThat(run.hosts()).containsExactly("gpu-b07");
        assertThat(run.environment()).containsExactly(Map.entry("NCCL_IB_HCA", "mlx5_0"));
        assertThat(run.args()).containsEntry("iters", 20L);
        assertThat(set.results()).hasSize(8);
        final Result r = set.results().get(0);
        assertThat(List.of(r.collective(), r.dtype(), r.op())).containsExactly("all_reduce", "float32", "sum");
        assertThat(r.root()).isEqualTo(-1);
        assertThat(r.timeUs()).isEqualTo(22.194304);
        // computed again from size and time: the file's 70.867913, to its 6 decimals
        assertThat(r.busBw()).isCloseTo(70.867913, within(1e-6));
        assertThat(r.cvPct()).isGreaterThan(0);
        assertThat(r.p50Us()).isGreaterThan(0);
        assertThat(r.wrong()).isZero();
    }

    @Test
    void cctksLayoutReadsBackAsTheRunItWasAndLinesUpWithNcclTestsColumns() throws IOException {
        final Run run = new Run("/r/profile_tcp_world4_20261124-173430.json", "0.1.0", null, "local-1", "local",
            "tcp", 4, "2026-11-24T17:34:30", List.of(new RankInfo(0, "vm", 11, 0, 0, "cpu", "lo")), List.of("vm"),
            Map.of(), Map.of("iters", 5L, "warmup_iters", 2L, "time_across_ranks", "mean"), List.of(), "OK", null);
        final List<Result> rs = new ArrayList<>();
        for (final long size : new long[] {1_000_000, 10_000_000}) {
            for (final boolean inPlace : new boolean[] {false, true}) {
                rs.add(new Result(run, "all_reduce", "float32", "sum", -1, size, size / 4, inPlace, 832.78 * size / 1e6,
                    600, 700, 1300, 36.4, 1.2008, 1.8012, 0, null));
            }
            rs.add(new Result(run, "broadcast", "bfloat16", null, 0, size, size / 2, false, size / 2436.1, 400, 405,
                420, 2.5, 2.4361, 2.4361, -1, null));
        }
        rs.add(Result.skipped(run, "broadcast", "bfloat16", null, 0, 1L << 40, 1L << 39, false, "out of memory"));
        final StringWriter w = new StringWriter();
        for (final Map.Entry<String, List<Result>> e : NcclTestsWriter.byCollective(rs).entrySet()) {
            NcclTestsWriter.write(run, e.getKey(), e.getValue(), w);
        }
        final String text = w.toString();
        assertThat(text).contains("# Collective test starting: all_reduce_perf", "# Collective test starting: "
            + "broadcast_perf", "# Collective test concluded: broadcast_perf", "# Out of bounds values : 0 OK",
            " time_across_ranks=mean\n");
        // nccl-tests' column layout: %12li  %12li  %8s  %6s  %6s, then   %7s  %6s  %6s  %6s per layout
        assertThat(text).contains("     1000000        250000     float     sum      -1   832.78    1.20    1.80"
            + "       0   832.78    1.20    1.80       0");
        assertThat(text).contains("    10000000       5000000  bfloat16    none       0  4104.92    2.44    2.44"
            + "     N/A      N/A     N/A     N/A     N/A\n");
        assertThat(text).doesNotContain("1099511627776");
        final Path f = Files.writeString(dir.resolve("back.txt"), text);
        final ResultSet back = read(f);
        assertThat(back.problems()).isEmpty();
        assertThat(back.runs()).singleElement().satisfies(r -> {
            assertThat(r.backend()).isEqualTo("tcp");
            assertThat(r.world()).isEqualTo(4);
            assertThat(r.start()).isEqualTo("2026-11-24T17:34:30");
            assertThat(r.cluster()).isEqualTo("local");
            assertThat(r.args()).containsEntry("time_across_ranks", "mean");
        });
        assertThat(back.results()).hasSize(6);
        for (int i = 0; i < 6; i++) {
            final Result a = rs.stream().filter(Result::measured).toList().get(i);
            final Result b = back.results().stream().filter(x -> x.collective().equals(a.collective())
                && x.sizeBytes() == a.sizeBytes() && x.inPlace() == a.inPlace()).findFirst().orElseThrow();
            assertThat(List.of(b.dtype(), String.valueOf(b.op()), b.root(), b.count(), b.wrong()))
                .containsExactly(a.dtype(), String.valueOf(a.op()), a.root(), a.count(), a.wrong());
            assertThat(b.timeUs()).isCloseTo(a.timeUs(), within(a.timeUs() * 1e-3));
            assertThat(b.busBw()).isCloseTo(a.busBw(), within(0.006));
        }
    }
}
