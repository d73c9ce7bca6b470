package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A report into a directory that holds one replaces its plots: the files the earlier report listed (or, before the
 * list, named as reports name plots) go; nothing else in the directory is touched, whatever the list says.
 */
@Timeout(120)
class StaleFilesTest {

    @TempDir
    Path dir;

    private Path input(final String name, final String collective) throws IOException {
        return Hostile.csv(dir.resolve(name), "profile_tcp_world2_1.csv", Hostile.series("tcp", collective, 3));
    }

    private static List<String> plots(final Path out) throws IOException {
        try (var s = Files.list(out.resolve("plots"))) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aSecondReportLeavesOnlyItsOwnPlotsAndTheUsersFiles() throws IOException {
        final Path out = dir.resolve("out");
        assertThat(Hostile.cli("report", input("a", "all_gather").toString(), "-o", out.toString(), "--nccl-tests")
            .code()).isZero();
        assertThat(plots(out)).contains("all_gather_busbw_vs_size.png");
        assertThat(out.resolve("nccl-tests/profile_tcp_world2_1_all_gather_perf.txt")).isNotEmptyFile();
        final Path mine = Files.writeString(out.resolve("plots/my_notes_busbw_vs_size.png"), "the user's");
        final Path notes = Files.writeString(out.resolve("notes.txt"), "keep");
        assertThat(Hostile.cli("report", input("b", "all_reduce").toString(), "-o", out.toString()).code())
            .isZero();
        assertThat(plots(out)).containsExactly("all_reduce_busbw_vs_size.png", "all_reduce_time_vs_size.png",
            "comparison_near_100MiB.png", "my_notes_busbw_vs_size.png");
        assertThat(out.resolve("nccl-tests/profile_tcp_world2_1_all_gather_perf.txt")).doesNotExist();
        assertThat(mine).hasContent("the user's");
        assertThat(notes).hasContent("keep");
        assertThat(Files.readAllLines(out.resolve(StaleFiles.MANIFEST))).containsExactly(
            "plots/all_reduce_time_vs_size.png", "plots/all_reduce_busbw_vs_size.png",
            "plots/comparison_near_100MiB.png");
    }

    @Test
    void aPlantedListRemovesNothingOutsideThePlotsAndTablesOfTheReport() throws IOException {
        final Path out = Files.createDirectories(dir.resolve("out/plots"));
        final Path victim = Files.writeString(dir.resolve("victim.png"), "keep");
        final Path top = Files.writeString(dir.resolve("out/combined.png"), "keep");
        Files.createDirectories(dir.resolve("out/nccl-tests/sub"));
        final Path deep = Files.writeString(dir.resolve("out/nccl-tests/sub/x.txt"), "keep");
        final Path linked = Files.createSymbolicLink(dir.resolve("out/plots/link.png"), victim);
        Files.writeString(dir.resolve("out").resolve(StaleFiles.MANIFEST), String.join("\n", "../victim.png",
            "plots/../../victim.png", "/etc/passwd", "combined.png", "plots/link.png", "nccl-tests/sub/x.txt",
            "plots/.hidden.png", "plots", "") + "\n");
        assertThat(Hostile.cli("report", input("a", "all_reduce").toString(), "-o", dir.resolve("out").toString())
            .code()).isZero();
        assertThat(victim).hasContent("keep");
        assertThat(top).hasContent("keep");
        assertThat(deep).hasContent("keep");
        assertThat(linked).isSymbolicLink();
        assertThat(out).isDirectory();
    }

    @Test
    void aReportWrittenBeforeTheListHadItsPlotsReplacedToo() throws IOException {
        final Path out = Files.createDirectories(dir.resolve("out/plots"));
        Files.writeString(dir.resolve("out/report.html"), "<html></html>");
        final Path old = Files.writeString(out.resolve("broadcast_busbw_vs_size.png"), "old");
        final Path oldBar = Files.writeString(out.resolve("comparison_at_64KiB.png"), "old");
        final Path other = Files.writeString(out.resolve("diagram.png"), "keep");
        assertThat(Hostile.cli("report", input("a", "all_reduce").toString(), "-o", dir.resolve("out").toString())
            .code()).isZero();
        assertThat(old).doesNotExist();
        assertThat(oldBar).doesNotExist();
        assertThat(other).hasContent("keep");
    }
}
