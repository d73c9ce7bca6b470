package cctk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Which directories and files {@link Ownership} lets cctk write to, judged by owner and mode. */
@Timeout(30)
class OwnershipTest {

    @TempDir
    Path tmp;

    @BeforeEach
    void unix() {
        assumeTrue(tmp.getFileSystem().supportedFileAttributeViews().contains("unix"));
    }

    @Test
    void meIsTheEffectiveUidOfThisProcessReadWithJavaBaseOnly() throws IOException {
        // /proc/self belongs to the process's effective uid
        assertThat(Ownership.me()).isEqualTo(((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid"))
                .longValue());
    }

    @Test
    void aDirectoryOnTheWayThatOthersMayWriteIsRefused() throws IOException {
        final Path open = Strangers.mode(Files.createDirectory(tmp.resolve("open")), 0777);
        final Path mine = Files.createDirectory(open.resolve("mine"));
        refused(mine, open + ", on its way, can be written by other users (mode 0777)");
    }

    @Test
    void aGroupWritableDirectoryOfTheUsersOwnIsRefused() throws IOException {
        final Path dir = Strangers.mode(Files.createDirectory(tmp.resolve("group")), 0770);
        refused(dir, "it can be written by other users (mode 0770)");
    }

    @Test
    void underAStickyDirectoryMissingDirectoriesAreMadeOwnerOnly() throws IOException {
        final Path sticky = Strangers.mode(Files.createDirectory(tmp.resolve("sticky")), 01777);
        final Path deep = sticky.resolve("a/b/c");
        assertThat(Ownership.directory(deep)).isEqualTo(deep);
        for (final Path p : new Path[] {sticky.resolve("a"), sticky.resolve("a/b"), deep}) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p))).isEqualTo("rwx------");
        }
    }

    @Test
    void dotDotAfterALinkIsJudgedWhereTheKernelGoes() throws IOException {
        final Path open = Strangers.mode(Files.createDirectory(tmp.resolve("open")), 0777);
        final Path a = Files.createDirectory(tmp.resolve("a"));
        Files.createSymbolicLink(a.resolve("link"), Files.createDirectory(open.resolve("x")));
        // lexically a/y; the kernel resolves link/.. to open/, where others may write
        refused(a.resolve("link/../y"), "can be written by other users");
        assertThat(a.resolve("y")).doesNotExist();
    }

    @Test
    void aFileOfTheUsersOwnWithASecondHardLinkIsNotReplaced() throws IOException {
        final Path f = Files.writeString(tmp.resolve("analysis.txt"), "keep");
        assertThatCode(() -> Ownership.replaceable(f)).doesNotThrowAnyException();
        Files.createLink(tmp.resolve("elsewhere"), f);
        assertThatThrownBy(() -> Ownership.replaceable(f)).isInstanceOfSatisfying(CctkException.class,
            e -> assertThat(e.getMessage()).contains("has 2 hard links"));
        assertThatThrownBy(() -> OwnerFiles.string(f, "new")).isInstanceOf(CctkException.class);
        assertThat(f).hasContent("keep");
        assertThat(tmp).isDirectoryNotContaining(p -> p.getFileName().toString().endsWith(".tmp"));
    }

    @Test
    void aFileOfTheUsersOwnIsReplacedByANewOneOwnerOnly() throws IOException {
        final Path f = Files.writeString(tmp.resolve("combined.csv"), "old");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
        final Object before = Files.getAttribute(f, "unix:ino");
        OwnerFiles.string(f, "new");
        assertThat(f).hasContent("new");
        assertThat(Files.getAttribute(f, "unix:ino")).isNotEqualTo(before);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------");
    }

    private static void refused(final Path dir, final String why) {
        assertThatThrownBy(() -> Ownership.directory(dir)).isInstanceOfSatisfying(CctkException.class, e -> {
            assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE);
            assertThat(e.getMessage()).contains(why).doesNotContain("\n");
        });
    }
}
