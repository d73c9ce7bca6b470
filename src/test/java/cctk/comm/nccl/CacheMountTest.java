package cctk.comm.nccl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JavaCPP cache on a noexec mount: found from /proc/self/mountinfo and from the dynamic loader's own words, and
 * explained in one paragraph that names the directory, the mount and CCTK_JAVACPP_CACHE. The real case mounts a
 * noexec tmpfs (root only; skipped loudly otherwise) and lets the real dynamic loader refuse a library there.
 */
@Timeout(120)
class CacheMountTest {

    private static final String INFO = String.join("\n",
            "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw",
            "30 22 0:25 / /tmp rw,nosuid,nodev shared:5 - tmpfs tmpfs rw",
            "31 30 0:26 / /tmp/a rw,nosuid,nodev,noexec shared:6 - tmpfs tmpfs rw",
            "32 22 0:27 / /scratch\\040space rw,noexec shared:7 - nfs srv:/x rw",
            "33 30 0:28 / /tmp/a rw shared:8 - tmpfs tmpfs rw",
            "34 22 0:29 / /dev/shm rw,nosuid,nodev,noexec shared:9 - tmpfs tmpfs rw", "");

    @Test
    void theLongestMountPointHoldsTheDirectoryAndAMountOverAnotherWins() {
        assertThat(CacheMount.of(Path.of("/tmp/ab/cache"), INFO)).isEqualTo(new CacheMount.Mount(Path.of("/tmp"),
                false));
        assertThat(CacheMount.of(Path.of("/tmp/a/cache"), INFO)).isEqualTo(new CacheMount.Mount(Path.of("/tmp/a"),
                false));
        assertThat(CacheMount.of(Path.of("/dev/shm/cctk"), INFO).noexec()).isTrue();
        assertThat(CacheMount.of(Path.of("/scratch space/u/c"), INFO)).isEqualTo(new CacheMount.Mount(
                Path.of("/scratch space"), true));
        assertThat(CacheMount.of(Path.of("/home/u"), INFO)).isEqualTo(new CacheMount.Mount(Path.of("/"), false));
        assertThat(CacheMount.of(Path.of("/x"), "garbage\n")).isNull();
    }

    @Test
    void theParagraphNamesTheCacheItsMountAndTheVariable() {
        final Path cache = Path.of("/dev/shm/cctk-javacpp-ann");
        final String chain = "java.lang.UnsatisfiedLinkError: no jnicudart in java.library.path\n"
                + "java.lang.UnsatisfiedLinkError: " + cache + "/cctk.jar/org/bytedeco/cuda/linux-x86_64/"
                + "libjnicudart.so: failed to map segment from shared object\n";
        final String text = CacheMount.noexecReason(chain, cache, "CCTK_JAVACPP_CACHE", d -> CacheMount.of(d, INFO));
        assertThat(text).contains("JavaCPP's library cache " + cache + " (chosen by CCTK_JAVACPP_CACHE)",
                "mounted noexec (/dev/shm)", "Set CCTK_JAVACPP_CACHE to a directory", "findmnt -T DIR")
                .doesNotContain("\n");
        // the loader's words alone, where mountinfo does not say (another security policy)
        assertThat(CacheMount.noexecReason(chain, cache, "x", d -> null)).contains("could not be mapped for execution",
                "libjnicudart.so", "CCTK_JAVACPP_CACHE");
        // a site library on a noexec mount: that file is named, not the cache
        assertThat(CacheMount.noexecReason("x: /dev/shm/nccl/libnccl.so.2: failed to map segment from shared"
                + " object\n", Path.of("/tmp/c"), "x", d -> CacheMount.of(d, INFO)))
                .startsWith("/dev/shm/nccl/libnccl.so.2 is on a file system mounted noexec (/dev/shm)")
                .contains("nccl.library");
        // any other failure with an exec-allowed cache: not this reason
        assertThat(CacheMount.noexecReason("libcuda.so.1: cannot open shared object file\n", Path.of("/tmp/c"), "x",
                d -> CacheMount.of(d, INFO))).isNull();
    }

    @Test
    void theJvmsPropertyIsNamedAsWhatChoseTheCache() {
        assertThat(CacheMount.chosenBy(cctk.Environment.of(java.util.Map.of()), true))
                .contains("-Dorg.bytedeco.javacpp.cachedir", "wins over CCTK_JAVACPP_CACHE");
        assertThat(CacheMount.chosenBy(cctk.Environment.of(java.util.Map.of("CCTK_JAVACPP_CACHE", "/c")), false))
                .isEqualTo("CCTK_JAVACPP_CACHE");
        assertThat(CacheMount.chosenBy(cctk.Environment.of(java.util.Map.of()), false)).contains("default");
    }

    /** A real noexec tmpfs: mountinfo says so, and the real dynamic loader's refusal is explained by it. */
    @Test
    void aRealNoexecMountIsFoundAndExplained(@TempDir final Path dir) throws Exception {
        final Path mount = Files.createDirectories(dir.resolve("noexec"));
        final String refused = run("mount", "-t", "tmpfs", "-o", "noexec,size=16m", "tmpfs", mount.toString());
        if (refused != null) {
            final String why = "CacheMountTest mounts a noexec tmpfs and needs root (with CAP_SYS_ADMIN): " + refused;
            final String bar = "!".repeat(100);
            System.out.println(bar + "\n!! SKIPPED, NOT PASSED: " + why + "\n" + bar);
            org.junit.jupiter.api.Assumptions.abort("SKIPPED, NOT PASSED: " + why);
        }
        try {
            final Path cache = mount.resolve("cctk-javacpp-ann");
            assertThat(CacheMount.of(cache)).isEqualTo(new CacheMount.Mount(mount.toRealPath(), true));
            assertThat(CacheMount.of(dir.resolve("elsewhere")).noexec()).as("the test's own directory").isFalse();
            // a real shared library copied there: the dynamic loader refuses to map it
            final Path so;
            try (Stream<Path> libs = Files.list(Path.of(System.getProperty("java.home"), "lib"))) {
                so = libs.filter(p -> p.getFileName().toString().endsWith(".so")).findFirst().orElseThrow();
            }
            final Path copy = Files.copy(so, Files.createDirectories(cache).resolve(so.getFileName()));
            final UnsatisfiedLinkError e = catchThrowableOfType(UnsatisfiedLinkError.class,
                    () -> System.load(copy.toString()));
            assertThat(e).as("loading from a noexec mount").isNotNull();
            final String text = CacheMount.noexecReason(NcclLibraries.chain(e), cache, "CCTK_JAVACPP_CACHE",
                    CacheMount::of);
            assertThat(text).contains("JavaCPP's library cache " + cache, "mounted noexec (" + mount.toRealPath() + ")",
                    "Set CCTK_JAVACPP_CACHE");
        } finally {
            if (run("umount", mount.toString()) != null) {
                run("umount", "-l", mount.toString());
            }
        }
    }

    /** Runs a command; null when it succeeded, else what it said. */
    private static String run(final String... cmd) throws IOException, InterruptedException {
        final Process p = new ProcessBuilder(List.of(cmd)).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return String.join(" ", cmd) + " did not end";
        }
        return p.exitValue() == 0 ? null : String.join(" ", cmd) + ": exit " + p.exitValue() + " " + out;
    }
}
