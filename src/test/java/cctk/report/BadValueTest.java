package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Values no run writes are refused by file, line or JSON path, and field; exit 2, never exit 4. */
@Timeout(120)
class BadValueTest {

    @TempDir
    Path dir;

    private Hostile.Outcome reportOf(final String name, final String text) throws IOException {
        final Path f = Files.writeString(dir.resolve(name), text);
        return Hostile.cli("report", f.toString(), "-o", dir.resolve("out").toString());
    }

    private void refused(final Hostile.Outcome r, final String... names) {
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.stackTrace()).as(r.err()).isFalse();
        assertThat(r.err()).contains(names);
    }

    @Test
    void aHugeSizeIsRefusedByJsonPath() throws IOException {
        refused(reportOf("r.json", Hostile.json("", Hostile.fields("1e300", "5"))), "r.json", "rows[0].size_bytes");
    }

    @Test
    void aWorldOfZeroOrLessIsRefused() throws IOException {
        refused(reportOf("w.json", Hostile.json("", Hostile.fields("1024", "5")).replace("\"world_size\": 2",
            "\"world_size\": 0")), "w.json", "world_size");
        refused(reportOf("n.csv", String.join("\n", cctk.results.Csvs.HEADER_BEFORE_REPEATS,
            Hostile.row("tcp", "-2", "all_reduce", 1024, 5)) + "\n"), "n.csv:2", "world_size");
    }

    @Test
    void negativeInfiniteAndZeroTimesAreRefused() throws IOException {
        refused(reportOf("neg.csv", String.join("\n", cctk.results.Csvs.HEADER_BEFORE_REPEATS,
            Hostile.row("tcp", "2", "all_reduce", 1024, -5)) + "\n"), "neg.csv:2", "time_us");
        refused(reportOf("inf.json", Hostile.json("", Hostile.fields("1024", "5")).replace("\"busbw_gbps\": 1",
            "\"busbw_gbps\": 1e999")), "inf.json", "rows[0].busbw_gbps");
        refused(reportOf("zero.csv", String.join("\n", cctk.results.Csvs.HEADER_BEFORE_REPEATS,
            Hostile.row("tcp", "2", "all_reduce", 1024, 0)) + "\n"), "zero.csv:2", "time_us");
        final Path text = Files.writeString(dir.resolve("infinity.csv"), String.join("\n", cctk.results.Csvs.HEADER_BEFORE_REPEATS,
            Hostile.row("tcp", "2", "all_reduce", 1024, 5).replace(",1,", ",Infinity,")) + "\n");
        refused(Hostile.cli("report", text.toString(), "-o", dir.resolve("o2").toString()), "infinity.csv:2",
            "cv_pct");
    }

    @Test
    void aZeroTimeInCompareIsNoRegression() throws IOException {
        final Path base = Hostile.csv(dir.resolve("b"), "profile_tcp_world2_1.csv",
            Hostile.series("tcp", "all_reduce", 3));
        final List<String> lines = Hostile.series("tcp", "all_reduce", 3);
        lines.set(2, Hostile.row("tcp", "2", "all_reduce", 4096, 0));
        final Path next = Hostile.csv(dir.resolve("n"), "profile_tcp_world2_1.csv", lines);
        final Hostile.Outcome r = Hostile.cli("compare", base.toString(), next.toString(), "--all");
        assertThat(r.out()).doesNotContain("REGRESSED");
        refused(r, next + ":3", "time_us");
    }

    @Test
    void duplicateJsonKeysAreRefused() throws IOException {
        refused(reportOf("d.json", Hostile.json("\"backend\": \"nccl\", ", Hostile.fields("1024", "5"))),
            "d.json", "duplicate key 'backend'");
    }

    @Test
    void aBadCvLimitIsAUsageError() throws IOException {
        final Path in = Hostile.csv(dir.resolve("in"), "profile_a.csv", Hostile.series("tcp", "all_reduce", 3));
        for (final String bad : List.of("NaN", "-1", "1e400", "Infinity")) {
            final Hostile.Outcome r = Hostile.cli("report", in.toString(), "-o", dir.resolve("o").toString(),
                "--cv-limit", bad);
            refused(r, "--cv-limit");
            assertThat(dir.resolve("o")).doesNotExist();
        }
    }

    @Test
    void aPathTheLocaleCouldNotDecodeIsNamedAsSuch() throws IOException {
        final Path in = Hostile.csv(dir.resolve("in"), "profile_a.csv", Hostile.series("tcp", "all_reduce", 3));
        final Hostile.Outcome r = Hostile.cli("report", in.toString(), "-o", dir.resolve("o\uFFFDx").toString());
        refused(r, "-o", "not valid UTF-8");
        assertThat(dir.resolve("o\uFFFDx")).doesNotExist();
        final Hostile.Outcome r2 = Hostile.cli("report", dir.resolve("in\uFFFD").toString(), "-o",
            dir.resolve("o").toString());
        refused(r2, "not valid UTF-8");
    }
}
