package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.cli.Main;
import cctk.results.Csvs;
import cctk.results.inputs.ResultReader;
import cctk.results.ResultSet;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Bad inputs are named, never a stack trace, and the report is made from the rest. */
@Timeout(60)
class BadInputTest {

    @TempDir
    Path dir;

    record Outcome(int code, String out, String err) {
    }

    Outcome report(final String... args) {
        final StringWriter o = new StringWriter();
        final StringWriter e = new StringWriter();
        final int code = Main.run(new PrintWriter(o), new PrintWriter(e), args);
        return new Outcome(code, o.toString(), e.toString());
    }

    @Test
    void everyKindOfBadInputIsNamedAndTheGoodOneStillMakesTheReport() throws IOException {
        final Path good = Csvs.allReduce(dir.resolve("good"), "profile_tcp_world2_1.csv", "tcp", 2, 1, 2, 3, 4);
        final String full = Files.readString(Csvs.allReduce(dir.resolve("t"), "x.csv", "tcp", 4, 1, 2, 3, 4));
        final Path truncated = Files.writeString(dir.resolve("profile_tcp_world4_cut.csv"),
            full.substring(0, full.length() - 30));
        final Path foreign = Files.writeString(dir.resolve("other.json"), "{\"benchmarks\": [{\"name\": \"x\"}]}");
        final Path units = Files.writeString(dir.resolve("gloo_cpu_benchmark.csv"),
            "backend,world_size,data_size_mb,mean_time_ms,bandwidth_gbs\ngloo,2,1,0.5,2.0\n");
        final Path cutJson = Files.writeString(dir.resolve("cut.json"), "{\"backend\": \"tcp\", \"rows\": [");
        final Path empty = Files.createDirectories(dir.resolve("empty"));
        final Path missing = dir.resolve("nope");
        final Path rep = dir.resolve("rep");
        final Outcome r = report("report", good.toString(), truncated.toString(), foreign.toString(),
            units.toString(), cutJson.toString(), empty.toString(), missing.toString(), "-o", rep.toString());
        assertThat(r.err()).doesNotContain("Exception", "\tat ");
        assertThat(r.err()).contains(truncated + ":5: row cut short or malformed (",
            foreign + ": not a cctk result file",
            units + ": mixed units: it has data_size_mb, mean_time_ms, bandwidth_gbs",
            cutJson + ": not valid JSON: the text ends early",
            empty + ": no result files (*.csv, *.json) in this directory",
            missing + ": no such file or directory");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).contains("report of 2 runs");
        // the truncated file's whole rows are kept: 3 of its 4
        final ResultSet set = ResultReader.read(List.of(rep.resolve("combined.csv")));
        assertThat(set.results()).hasSize(4 + 3);
        assertThat(Files.readString(rep.resolve("analysis.txt"))).contains("Inputs skipped in whole or part:",
            foreign.toString());
        assertThat(rep.resolve("report.html")).isNotEmptyFile();
    }

    @Test
    void nothingReadableIsAUsageErrorNamingTheInputs() throws IOException {
        final Path empty = Files.createDirectories(dir.resolve("empty"));
        final Outcome r = report("report", empty.toString(), "-o", dir.resolve("rep").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains(empty + ": no result files", "no results to report").doesNotContain("\tat ");
        assertThat(dir.resolve("rep")).doesNotExist();
    }

    @Test
    void aJsonWithOtherUnitsIsRefused() throws IOException {
        final Path json = Files.writeString(dir.resolve("r.json"), "{\"backend\": \"tcp\", \"world_size\": 2,"
            + " \"units\": {\"time\": \"ms\", \"size\": \"MB\", \"bandwidth\": \"GB/s\"}, \"rows\": []}");
        final ResultSet set = ResultReader.read(List.of(json));
        assertThat(set.problems()).containsExactly(json + ": mixed units: it records time in ms, size in MB and"
            + " bandwidth in GB/s, where cctk reads us, bytes and GB/s; skipped.");
    }

    @Test
    void aBadSizeFlagIsAUsageError() throws IOException {
        final Path good = Csvs.allReduce(dir, "a.csv", "tcp", 2, 1, 2);
        final Outcome r = report("report", good.toString(), "--at", "lots", "-o", dir.resolve("rep").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("expected a size with a byte unit such as 100MiB");
    }
}
