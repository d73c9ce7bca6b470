package cctk.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * cctk's tables in nccl-tests' layout, line by line against nccl-tests' own: the fixture
 * {@code nccl-tests/all_reduce_perf.txt} follows the printf formats of nccl-tests v2.19.6 (https://github.com/NVIDIA/
 * nccl-tests, src/util.cu: writeDeviceReport, writeResultHeader, writeBenchmarkLinePreamble, writeBenchmarkLineBody,
 * writeResultFooter, finalizeFooter, writeErrors); no output of a real nccl-tests run is in this repository.
 */
@Timeout(60)
class NcclTestsWriterTest {

    /**
     * Issue 26 item 7: the same inputs (each row's size, count, type, operator, root, times, bandwidths and wrong
     * elements) give the same bytes as nccl-tests', but for the lines that depend on the machine or that the table
     * does not hold: nccl-tests' version line (the NCCL library's version), the {@code #  Rank} lines (hosts, pids,
     * PCI ids), {@code # Avg bus bandwidth} (nccl-tests averages the unrounded busbw) and cctk's own
     * {@code # cctk-run:} line. Before: no {@code unalign: 0}, header lines without their last space, and no
     * {@code #} and empty line after the footer.
     */
    @Test
    void aTableIsNcclTestsOwnByteForByteButForTheMachinesLines() throws IOException {
        final String nccl = Files.readString(NcclTestsTest.fixture("all_reduce_perf.txt"));
        final Run run = new Run("/r/profile_nccl_world8_1.json", "0.1.0", null, null, null, "nccl", 8, null,
            List.of(), List.of(), Map.of(), Map.of("iters", 20L, "warmup_iters", 1L), List.of(), "OK", null);
        final List<Result> rs = new ArrayList<>();
        for (final String line : nccl.split("\n")) {
            if (line.startsWith(" ")) {
                final String[] t = line.strip().split(" +");
                for (final int at : new int[] {5, 9}) {
                    rs.add(new Result(run, "all_reduce", NcclTests.dtype(t[2]), t[3], Integer.parseInt(t[4]),
                        Long.parseLong(t[0]), Long.parseLong(t[1]), at == 9, Double.parseDouble(t[at]), Double.NaN,
                        Double.NaN, Double.NaN, Double.NaN, Double.parseDouble(t[at + 1]),
                        Double.parseDouble(t[at + 2]), Long.parseLong(t[at + 3]), null));
                }
            }
        }
        assertThat(rs).hasSize(28);
        final StringWriter w = new StringWriter();
        NcclTestsWriter.write(run, "all_reduce", NcclTestsWriter.byCollective(rs).get("all_reduce"), w);
        assertThat(w.toString()).endsWith("# Collective test concluded: all_reduce_perf\n#\n\n");
        assertThat(kept(w.toString())).isEqualTo(kept(nccl)).hasSize(27);
    }

    /** The lines that do not depend on the machine, each ended by its newline. */
    private static List<String> kept(final String text) {
        final List<String> out = new ArrayList<>();
        for (final String line : text.split("(?<=\n)")) {
            if (!line.startsWith("# nccl-tests version ") && !line.startsWith("#  Rank ")
                && !line.startsWith("# Avg bus bandwidth ") && !line.startsWith("# cctk-run: ")) {
                out.add(line);
            }
        }
        return out;
    }
}
