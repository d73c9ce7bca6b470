package cctk.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rendezvous through a directory every rank must share: two ranks that see one directory meet; a rank whose
 * directory is another (a node-local path) says so within its bound, naming its host and the directory, instead of
 * waiting out the backend's own timeout.
 */
class SharedDirTest {

    @TempDir
    Path tmp;

    @Test
    void twoRanksOnOneDirectoryMeetOnOneOwnerOnlyFile() throws Exception {
        final MemoryStore store = new MemoryStore(2, Duration.ofSeconds(10));
        final CompletableFuture<String> other = CompletableFuture.supplyAsync(() ->
            SharedDir.meet(store, "k", 1, "node2", tmp, "seen-", Duration.ofSeconds(10)));
        final String name = SharedDir.meet(store, "k", 0, "node1", tmp, "seen-", Duration.ofSeconds(10));
        assertThat(other.get()).isEqualTo(name).matches("[0-9a-f]{32}");
        final Path file = tmp.resolve("seen-" + name);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void aRankWhoseDirectoryIsNotRankZerosSaysSoWithinItsBound() {
        final MemoryStore store = new MemoryStore(2, Duration.ofSeconds(10));
        final Path zero = tmp.resolve("node1-out");
        final Path one = tmp.resolve("node2-local");
        zero.toFile().mkdir();
        one.toFile().mkdir();
        SharedDir.meet(store, "k", 0, "node1", zero, "seen-", Duration.ofSeconds(10));
        final long t0 = System.nanoTime();
        assertThatThrownBy(() -> SharedDir.meet(store, "k", 1, "node2", one, "seen-", Duration.ofMillis(300)))
            .isInstanceOfSatisfying(CctkException.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT))
            .hasMessageContaining("rank 1 on node2 does not see rank 0's rendezvous file in " + one)
            .hasMessageContaining("not on a file system every node shares");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aNameThatIsNotHexIsNeverAPath() {
        final MemoryStore store = new MemoryStore(2, Duration.ofSeconds(10));
        store.set("k", "../../etc/passwd".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThatThrownBy(() -> SharedDir.meet(store, "k", 1, "node2", tmp, "seen-", Duration.ofMillis(100)))
            .hasMessageContaining("malformed rendezvous name");
    }
}
