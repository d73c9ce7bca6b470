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
            "cctk report --nccl-tests");
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
}
