package cctk;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cause file a rank other than 0 leaves beside rank 0's result files: real files in a temporary directory. */
class CauseFileTest {

    @TempDir
    Path dir;

    @Test
    void theFirstRankWritesOneOwnerOnlyLineAndTheOthersKeepIt() throws Exception {
        final Path json = dir.resolve("profile_tcp_world3_20260101-000000.json");
        final Path file = CauseFile.write(json, "rank 1: rank 0 (process 7) is gone\nsecond line");
        assertThat(file).isEqualTo(dir.resolve("profile_tcp_world3_20260101-000000.cause"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(CauseFile.write(json, "rank 2: something else")).as("the first rank's words stay").isNull();
        assertThat(CauseFile.read(dir.resolve("profile_tcp_world3_20260101-000000.json.part")))
            .isEqualTo("rank 1: rank 0 (process 7) is gone second line");
    }

    @Test
    void noCauseBesideFinishedFilesAndNoLinkFollowed() throws Exception {
        final Path json = Files.writeString(dir.resolve("profile_a.json"), "{}");
        assertThat(CauseFile.write(json, "rank 1: late")).as("rank 0 finished: its files say why").isNull();
        assertThat(Files.exists(dir.resolve("profile_a.cause"))).isFalse();
        final Path target = Files.writeString(dir.resolve("elsewhere"), "secret\n");
        Files.createSymbolicLink(dir.resolve("profile_b.cause"), target);
        assertThat(CauseFile.read(dir.resolve("profile_b.json.part"))).as("a planted link is not read").isNull();
        assertThat(CauseFile.write(dir.resolve("profile_b.json"), "rank 1: x")).isNull();
        assertThat(Files.readString(target)).isEqualTo("secret\n");
    }

    @Test
    void aHostileCauseIsCutAndMadePrintable() throws Exception {
        Files.writeString(dir.resolve("profile_c.cause"), "\u001b[31mred" + "x".repeat(10_000));
        final String read = CauseFile.read(dir.resolve("profile_c.json.part"));
        assertThat(read).doesNotContain("\u001b").hasSizeLessThanOrEqualTo(2100);
    }
}
