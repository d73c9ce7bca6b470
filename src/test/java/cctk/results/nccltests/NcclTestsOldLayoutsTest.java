package cctk.results.nccltests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.inputs.ResultReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26 item 9: the table layouts of older nccl-tests releases, written here by the printf formats those releases
 * used (https://github.com/NVIDIA/nccl-tests: src/broadcast.cu and src/common.cu before the resync with NCCL 2.13,
 * August 2022; src/all_reduce.cu and src/common.cu of the first release, August 2017), and a table in no known
 * layout, refused with its file and line.
 */
@Timeout(60)
class NcclTestsOldLayoutsTest {

    @TempDir
    Path dir;

    /**
     * Before 2.13, broadcast's table had a {@code root} column where all_reduce's has {@code redop} (and no
     * {@code redop}). Before: the root was read as an operator ("0" is none) and every row was refused.
     */
    @Test
    void aBroadcastTableBefore213HasItsRootWhereOthersHaveTheOperator() throws IOException {
        final List<String> l = new ArrayList<>(List.of(
            "# nThread 1 nGpus 2 minBytes 1048576 maxBytes 2097152 step: 2(factor) warmup iters: 5 iters: 20"
                + " validation: 1 ", "#", "# Using devices"));
        for (int r = 0; r < 2; r++) {
            l.add(String.format(Locale.ROOT, "#   Rank %2d Pid %6d on %10s device %2d [0x%02x] %s", r, 4000 + r,
                "dgx1", r, 6 + r, "Tesla V100-SXM2-16GB"));
        }
        l.add("#");
        l.add(String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %7s  %6s  %6s  %5s  %7s  %6s  %6s  %5s", "size",
            "count", "type", "root", "time", "algbw", "busbw", "error", "time", "algbw", "busbw", "error"));
        for (final long size : new long[] {1 << 20, 2 << 20}) {
            final double us = 20 + size / 50e3;
            l.add(String.format(Locale.ROOT, "%12d  %12d  %8s  %6d", size, size / 4, "float", 1)
                + String.format(Locale.ROOT, "  %7.2f  %6.2f  %6.2f  %5.0e", us, size / us / 1e3, size / us / 1e3, 0.0)
                + String.format(Locale.ROOT, "  %7.2f  %6.2f  %6.2f  %5.0e", us, size / us / 1e3, size / us / 1e3, 0.0));
        }
        final ResultSet set = read("broadcast_perf.log", l);
        assertThat(set.problems()).isEmpty();
        assertThat(set.runs()).singleElement().satisfies(r -> assertThat(r.world()).isEqualTo(2));
        assertThat(set.results()).hasSize(4).allSatisfy(r -> {
            assertThat(r.root()).isEqualTo(1);
            assertThat(r.op()).isNull();
            assertThat(r.busBw()).isCloseTo(r.sizeBytes() / r.timeUs() / 1e3, within(1e-9));
        });
    }

    /**
     * The first releases (2017 to March 2019) named the columns {@code bytes N type op ... res}, printed times in
     * milliseconds, rank lines without a pid, and the {@code nThread} line without its {@code #}. Before: not a
     * result file.
     */
    @Test
    void theFirstReleasesTableInMillisecondsIsReadInMicroseconds() throws IOException {
        final List<String> l = new ArrayList<>(List.of(
            "nThread 1 nGpus 4 minBytes 1048576 maxBytes 4194304 step: 4(factor) warmup iters: 5 iters: 20"
                + " validation: 1 ", "# Using devices"));
        for (int r = 0; r < 4; r++) {
            l.add(String.format(Locale.ROOT, "#   Rank %2d on %10s device %2d [0x%02x] %s", r, "dgx1", r, 6 + r,
                "Tesla P100-SXM2-16GB"));
        }
        l.add(String.format(Locale.ROOT, "# %10s  %12s  %6s  %6s        out-of-place                    in-place", "",
            "", "", ""));
        l.add(String.format(Locale.ROOT, "# %10s  %12s  %6s  %6s  %7s  %5s  %5s  %7s  %7s  %5s  %5s  %7s", "bytes",
            "N", "type", "op", "time", "algbw", "busbw", "res", "time", "algbw", "busbw", "res"));
        for (final long size : new long[] {1 << 20, 4 << 20}) {
            final double ms = 0.02 + size / 50e6;
            final double alg = size / ms / 1e6;
            l.add(String.format(Locale.ROOT, "%12d  %12d  %6s  %6s", size, size / 4, "float", "sum")
                + String.format(Locale.ROOT, "  %7.3f  %5.2f  %5.2f  %7.0e", ms, alg, alg * 1.5, 5e-7)
                + String.format(Locale.ROOT, "  %7.3f  %5.2f  %5.2f  %7.0e", ms, alg, alg * 1.5, 5e-7));
        }
        final ResultSet set = read("all_reduce_perf.log", l);
        assertThat(set.problems()).isEmpty();
        assertThat(set.runs()).singleElement().satisfies(r -> assertThat(r.world()).isEqualTo(4));
        assertThat(set.results()).hasSize(4);
        final Result first = set.results().get(0);
        assertThat(first.op()).isEqualTo("sum");
        // 0.02 + 1 MiB / 50e6 = 0.04097 ms, printed 0.041
        assertThat(first.timeUs()).isCloseTo(41.0, within(1e-9));
        // busbw from size and the printed (rounded) time, 38.36, moved into the interval of the printed 38.39, which
        // nccl-tests computed from the unrounded time
        final double printed = (1 << 20) / (0.02 + (1 << 20) / 50e6) / 1e6 * 1.5;
        assertThat(String.format(Locale.ROOT, "%5.2f", first.busBw()))
            .isEqualTo(String.format(Locale.ROOT, "%5.2f", printed));
        assertThat(first.busBw()).isCloseTo(printed, within(0.005));
        assertThat(first.wrong()).isEqualTo(-1);
    }

    /**
     * A table whose header is in no layout nccl-tests printed is refused in one problem naming the file and the
     * header's line, with the layouts cctk reads. Before: "not a result file (no nccl-tests result table in it)".
     */
    @Test
    void aTableInAnUnknownLayoutIsNamedByFileAndLine() throws IOException {
        final List<String> l = List.of("# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 5"
                + " iters: 20 agg iters: 1 validation: 1 graph: 0", "#", "# Using devices",
            "#  Rank  0 Group  0 Pid    101 on         n1 device  0 [0000:07:00] GPU", "#",
            "#      bytes    elements     dtype    time   algbw   busbw   errors",
            "           8           2     float    9.10    0.00    0.00        0");
        final ResultSet set = read("all_reduce_perf.txt", l);
        assertThat(set.results()).isEmpty();
        assertThat(set.problems()).singleElement().asString()
            .contains("all_reduce_perf.txt:6: a result table whose header, 'bytes elements dtype time algbw busbw"
                + " errors', is in no layout", "2.13 and later", "milliseconds")
            .doesNotContain("cctk run", "not a result file");
    }

    private ResultSet read(final String name, final List<String> lines) throws IOException {
        return ResultReader.read(List.of(Files.write(dir.resolve(name), lines)));
    }
}
