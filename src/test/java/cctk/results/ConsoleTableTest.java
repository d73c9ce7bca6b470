package cctk.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class ConsoleTableTest {

    @Test
    void aRowHasNcclTestsColumnsForBothLayoutsAndLinesUpWithTheHeader() {
        final Run run = ResultFilesTest.header();
        final List<String> header = ConsoleTable.header(run);
        assertThat(header.get(0)).startsWith("# tcp, 4 ranks: time = mean per rank, max over ranks");
        // issue 26 item 9: the rows interleave collectives size by size, and the header says so (before: it did not)
        assertThat(header.get(0)).contains("size by size with the collectives of a size together",
            "again one table per collective at the end");
        final String columns = header.get(1);
        assertThat(columns).contains("collective", "type", "redop", "root", "size(B)", "count", "time(us)",
            "algbw", "busbw", "#wrong", "in-place");
        final String row = ConsoleTable.row(ResultFilesTest.allReduce());
        assertThat(row).contains("all_reduce", "float32", "sum", "4194304", "1048576", "90.00", "46.60", "69.90",
            "91.00", "46.10", "69.10");
        assertThat(row.length()).isEqualTo(columns.length());
        assertThat(row.indexOf(" |")).isEqualTo(columns.indexOf(" |"));
        assertThat(row.lastIndexOf(" |")).isEqualTo(columns.lastIndexOf(" |"));
        final String skipped = ConsoleTable.row(ResultFilesTest.skippedGather());
        assertThat(skipped).contains("all_gather", "float32", " - ", "179.00", "17.60", "2", "skipped")
            .doesNotContain("out of memory");
    }

    /**
     * Issue 26 item 9: after a sweep of several collectives the rows come again, one table per collective as
     * nccl-tests prints them (before: only interleaved size by size); a sweep of one collective is not repeated.
     */
    @Test
    void aSweepOfSeveralCollectivesEndsWithOneTablePerCollective() {
        final List<Result> rs = new java.util.ArrayList<>();
        rs.addAll(ResultFilesTest.allReduce().results());
        rs.addAll(ResultFilesTest.skippedGather().results());
        rs.addAll(ResultFilesTest.allReduce().results());
        final List<String> end = ConsoleTable.end(rs, "quiet");
        assertThat(end.get(0)).startsWith("# the rows above by collective");
        assertThat(end).containsSubsequence("# all_reduce", "# all_gather", "cctk: JIT during the sweep: quiet");
        assertThat(end.get(1)).isEqualTo("# all_reduce");
        assertThat(end.get(2)).contains("all_reduce").contains("4194304");
        // the same point measured before and after the all_gather is one row of one all_reduce table
        assertThat(end.stream().filter(l -> l.equals("# all_reduce"))).hasSize(1);
        assertThat(end.stream().filter(l -> l.contains("all_reduce") && !l.startsWith("#"))).hasSize(1);
        assertThat(end.get(end.indexOf("# all_gather") + 1)).contains("all_gather", "skipped");
        assertThat(ConsoleTable.end(ResultFilesTest.allReduce().results(), "quiet"))
            .containsExactly("cctk: JIT during the sweep: quiet");
    }

    /** A spread of 1000 % or more keeps a space before it (before: "011259.5%" ran into the #wrong column). */
    @Test
    void aLargeSpreadStaysInItsColumn() {
        assertThat(ConsoleTable.spread(12.34)).isEqualTo("12.3%");
        assertThat(ConsoleTable.spread(11259.5)).isEqualTo("11260%");
        assertThat(ConsoleTable.spread(1e9)).isEqualTo(">99999%");
        assertThat(ConsoleTable.spread(Double.NaN)).isEqualTo("-");
        assertThat(String.format(java.util.Locale.ROOT, "%8s%8s", "0", ConsoleTable.spread(1e9)))
            .contains(" >99999%");
    }
}
