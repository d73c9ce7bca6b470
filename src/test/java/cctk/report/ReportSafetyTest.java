package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code cctk report} writes only inside its directory, owner-only, and no byte of a result file steers it. */
@Timeout(120)
class ReportSafetyTest {

    @TempDir
    Path dir;

    @Test
    void aCollectiveNamedLikeAPathNeverLeavesTheReportDirectory() throws IOException {
        final Path abs = Files.createDirectories(dir.resolve("abs"));
        Files.createDirectories(dir.resolve("esc"));
        final Path in = dir.resolve("in");
        Hostile.csv(in, "profile_a.csv", Hostile.series("tcp", abs.resolve("TRAV").toString(), 3));
        Hostile.csv(in, "profile_b.csv", Hostile.series("nccl", "../../../../esc/TRAV", 3));
        Hostile.csv(in, "profile_c.csv", Hostile.series("gloo", "..", 3));
        final Path out = dir.resolve("deep/er/out");
        final Hostile.Outcome r = Hostile.cli("report", in.toString(), "-o", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(abs).isEmptyDirectory();
        assertThat(dir.resolve("esc")).isEmptyDirectory();
        for (final Path f : Hostile.files(dir)) {
            assertThat(f.startsWith(out) || f.startsWith(in)).as(f.toString()).isTrue();
        }
        try (var s = Files.list(out.resolve("plots"))) {
            final List<String> names = s.map(p -> p.getFileName().toString()).toList();
            assertThat(names).allMatch(n -> n.matches("[A-Za-z0-9._-]{1,100}") && !n.startsWith("."));
            assertThat(names).doesNotHaveDuplicates().hasSizeGreaterThanOrEqualTo(7);
        }
    }

    @Test
    void controlCharactersNeverReachTheTerminalOrTheFiles() throws IOException {
        final Path in = dir.resolve("in");
        Hostile.csv(in, "profile_esc.csv", Hostile.series("tcp\u001b]0;owned\u0007", "all\u001b[2Jreduce", 3));
        Files.writeString(in.resolve("bad.csv"), "backend,world_size\n\u001b[31m\n");
        final Path out = dir.resolve("out");
        final Hostile.Outcome r = Hostile.cli("report", in.toString(), "-o", out.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.out() + r.err()).doesNotContain("\u001b", "\u0007");
        for (final Path f : Hostile.files(out)) {
            if (!f.toString().endsWith(".png")) {
                assertThat(Files.readString(f, StandardCharsets.UTF_8)).as(f.toString())
                    .doesNotContain("\u001b", "\u0007");
            }
        }
        final Hostile.Outcome c = Hostile.cli("compare", in.toString(), in.toString(), "--all");
        assertThat(c.out() + c.err()).doesNotContain("\u001b", "\u0007");
    }

    @Test
    void newReportFilesAreOwnerOnly() throws IOException {
        final Path in = Hostile.csv(dir.resolve("in"), "profile_a.csv", Hostile.series("tcp", "all_reduce", 3));
        final Path out = dir.resolve("out");
        assertThat(Hostile.cli("report", in.toString(), "-o", out.toString()).code()).isZero();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve("plots"))))
            .isEqualTo("rwx------");
        for (final Path f : Hostile.files(out)) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).as(f.toString())
                .isEqualTo("rw-------");
        }
    }

    @Test
    void aReportOverAFileLinkedOutOfTheDirectoryDoesNotWriteThroughTheLink() throws IOException {
        final Path in = Hostile.csv(dir.resolve("in"), "profile_a.csv", Hostile.series("tcp", "all_reduce", 3));
        final Path out = Files.createDirectories(dir.resolve("out"));
        final Path victim = Files.writeString(dir.resolve("victim.txt"), "keep");
        Files.createSymbolicLink(out.resolve("analysis.txt"), victim);
        final Hostile.Outcome r = Hostile.cli("report", in.toString(), "-o", out.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("analysis.txt", "symbolic link").doesNotContain("\tat ");
        assertThat(victim).hasContent("keep");
    }

    @Test
    void aSingleSizeThatIsNoPowerOfTwoIsPlotted() throws IOException {
        final Path in = Hostile.csv(dir.resolve("in"), "profile_tcp_world2_1.csv", List.of(
            cctk.results.Csvs.HEADER_BEFORE_REPEATS, Hostile.row("tcp", "2", "all_reduce", 1_000_000, 120)));
        final Path out = dir.resolve("out");
        final Hostile.Outcome r = Hostile.cli("report", in.toString(), "-o", out.toString());
        assertThat(r.err()).isEmpty();
        assertThat(r.code()).isZero();
        assertThat(out.resolve("plots/all_reduce_busbw_vs_size.png")).isNotEmptyFile();
    }

    @Test
    void theAxisLabelIsNeverEmpty() {
        for (final boolean decimal : new boolean[] {false, true}) {
            final Axes.SizeScale scale = new Axes.SizeScale(decimal, 0, 2);
            for (double x = -3; x < 70; x += 0.0625) {
                assertThat(scale.label(x)).as("tick %s", x).isNotBlank();
            }
            assertThat(scale.label(Double.NaN)).isNotBlank();
        }
        assertThat(new Axes.SizeScale(false, 0, 2).label(20)).isEqualTo("1 MiB");
        assertThat(new Axes.SizeScale(true, 0, 2).label(7)).isEqualTo("10 MB");
    }

    @Test
    void aReportIntoItsOwnInputDirectoryDoesNotReadItsOwnCombinedCsv() throws IOException {
        final Path d = Hostile.csv(dir.resolve("d"), "profile_tcp_world2_1.csv",
            Hostile.series("tcp", "all_reduce", 4)).getParent();
        for (int i = 0; i < 3; i++) {
            final Hostile.Outcome r = Hostile.cli("report", d.toString(), "-o", d.toString());
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).contains("report of 1 run in");
            assertThat(Files.readAllLines(d.resolve("combined.csv"))).hasSize(1 + 4);
        }
    }
}
