package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.results.Column;
import cctk.results.inputs.ResultReader;
import cctk.results.ResultSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Many inputs and large ones: linear reading (10^4 files never finished before), and clear limits. */
class ManyInputsTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void tenThousandResultFilesMakeOneReport() throws IOException {
        final Path in = Files.createDirectories(dir.resolve("in"));
        for (int i = 0; i < 10_000; i++) {
            Files.writeString(in.resolve("profile_tcp_world2_" + i + ".csv"), cctk.results.Csvs.HEADER_BEFORE_REPEATS + "\n"
                + Hostile.row("tcp", Integer.toString(2 + i % 7), "all_reduce", 1L << 20, 100 + i % 13) + "\n"
                + Hostile.row("tcp", Integer.toString(2 + i % 7), "all_reduce", 1L << 22, 300 + i % 17) + "\n");
        }
        final Hostile.Outcome r = Hostile.cli("report", in.toString(), "-o", dir.resolve("out").toString());
        assertThat(r.err()).isEmpty();
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("report of 10000 runs");
        assertThat(Files.readAllLines(dir.resolve("out/combined.csv"))).hasSize(1 + 20_000);
        assertThat(Files.readString(dir.resolve("out/analysis.txt")))
            .contains("all_reduce float32 sum: 10000 series, more than " + Analysis.MAX_PAIRWISE + ": no crossovers or ratios");
        assertThat(Files.readString(dir.resolve("out/report.html"))).contains("(the first " + 24 + " of 10000 runs)");
    }

    @Test
    @Timeout(60)
    void pastTheMeasurementLimitIsAUsageErrorNamingTheFile() throws IOException {
        final List<String> lines = new ArrayList<>(Hostile.series("tcp", "all_reduce", 6));
        final Path a = Hostile.csv(dir, "profile_a.csv", lines);
        final Path b = Hostile.csv(dir, "profile_b.csv", lines);
        assertThat(ResultReader.read(List.of(a, b), null, new ResultReader.Limits(10, 12)).results()).hasSize(12);
        assertThatThrownBy(() -> ResultReader.read(List.of(a, b), null, new ResultReader.Limits(10, 11)))
            .isInstanceOf(CctkException.class).hasMessageContaining("at most 11 measurements")
            .hasMessageContaining(b.toString())
            .satisfies(e -> assertThat(((CctkException) e).exitCode()).isEqualTo(ExitCode.USAGE));
    }

    @Test
    @Timeout(60)
    void pastTheFileLimitIsAUsageError() throws IOException {
        for (int i = 0; i < 4; i++) {
            Hostile.csv(dir.resolve("in"), "profile_" + i + ".csv", Hostile.series("tcp", "all_reduce", 1));
        }
        assertThatThrownBy(() -> ResultReader.read(List.of(dir.resolve("in")), null, new ResultReader.Limits(3, 99)))
            .isInstanceOf(CctkException.class).hasMessageContaining("at most 3 result files");
    }

    @Test
    @Timeout(60)
    void aLargeCsvIsReadAsAStreamWithEveryRow() throws IOException {
        final StringBuilder sb = new StringBuilder(cctk.results.Csvs.HEADER_BEFORE_REPEATS).append('\n');
        for (int i = 0; i < 50_000; i++) {
            sb.append(Hostile.row("tcp", "2", "all_reduce", 1L << (10 + i % 20), 10 + i % 1000)).append("\r\n");
        }
        final Path f = Files.writeString(dir.resolve("big.csv"), "\uFEFF" + sb);
        final ResultSet set = ResultReader.read(List.of(f));
        assertThat(set.problems()).isEmpty();
        assertThat(set.results()).hasSize(50_000);
        // one shared copy of each repeated name
        assertThat(set.results().get(0).collective()).isSameAs(set.results().get(49_999).collective());
    }
}
