package cctk.comm.nccl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import cctk.CctkException;
import cctk.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Loading or explaining: JavaCPP's measured failure texts become one paragraph naming the library and the fix. */
@Timeout(60)
class NcclLibrariesTest {

    private static final String TOP = "java.lang.UnsatisfiedLinkError: no jnicudart in java.library.path: "
            + "/usr/java/packages/lib:/usr/lib/x86_64-linux-gnu/jni\n";

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "/root/.javacpp/cache/cctk.jar/org/bytedeco/cuda/linux-x86_64/libjnicudart.so: libcuda.so.1: cannot open "
            + "shared object file: No such file or directory | no NVIDIA driver on this node (libcuda.so.1 not found)"
            + " | GPU node",
        "/tmp/c/libjnicudart.so: libcudart.so.13: cannot open shared object file: No such file or directory"
            + " | the CUDA runtime libcudart.so.13 was not found | -Pcuda12",
        "/tmp/c/libjninccl.so: libnccl.so.2: cannot open shared object file: No such file or directory"
            + " | NCCL (libnccl.so.2) was not found | module load nccl",
        "/tmp/c/libjnicudart.so: /lib64/libc.so.6: version `GLIBC_2.34' not found (required by /tmp/c/libjnicudart.so)"
            + " | needs GLIBC_2.34 | -Pcuda12-oldglibc",
        "Could not find jnicudart in class, module, and library paths. | carries no jnicudart for platform"
            + " linux-x86_64 | -Djavacpp.platform=linux-x86_64",
        "Platform \"macosx-arm64\" not supported by class org.bytedeco.cuda.global.cudart | this is macosx-arm64"
            + " | Linux on x86_64 or arm64",
        "java.io.IOException: Could not create the cache: Set the \"org.bytedeco.javacpp.cachedir\" system property."
            + " | could not create its library cache | CCTK_JAVACPP_CACHE",
        "something nobody has seen | something nobody has seen | this build is for CUDA 13",
    })
    void eachMeasuredFailureIsExplained(final String cause, final String what, final String fix) {
        final String chain = TOP + "java.lang.UnsatisfiedLinkError: " + cause + "\n";
        final String text = NcclLibraries.explain(chain, "linux-x86_64", 13, null);
        assertThat(text).startsWith("The nccl backend cannot start on ").contains(what.trim(), fix.trim())
                .doesNotContain("java.library.path", "UnsatisfiedLinkError");
    }

    @Test
    void aSpecLibraryIsNamedWhenNcclIsMissing() {
        final String text = NcclLibraries.explain("x: libnccl.so.2: cannot open shared object file", "linux-x86_64",
                12, "/opt/ncclx/lib");
        assertThat(text).contains("(nccl.library: /opt/ncclx/lib)", "nccl.library");
    }

    @Test
    void theCauseChainIsWalkedOnce() {
        final Throwable inner = new UnsatisfiedLinkError("libcuda.so.1: cannot open shared object file");
        final Throwable outer = new UnsatisfiedLinkError("no jnicudart in java.library.path");
        outer.initCause(inner);
        assertThat(NcclLibraries.chain(outer).lines()).hasSize(2).last().asString().contains("libcuda.so.1");
    }

    @Test
    void theCacheGoesToNodeLocalDiskUnlessSaidOtherwise() {
        assertThat(NcclLibraries.cacheDir(cctk.Environment.of(Map.of("CCTK_JAVACPP_CACHE", "/scratch/c", "SLURM_TMPDIR", "/x"))))
                .isEqualTo(Path.of("/scratch/c"));
        assertThat(NcclLibraries.cacheDir(cctk.Environment.of(Map.of("SLURM_TMPDIR", "/local/job1", "TMPDIR", "/y", "USER", "ann"))))
                .isEqualTo(Path.of("/local/job1/cctk-javacpp-ann"));
        assertThat(NcclLibraries.cacheDir(cctk.Environment.of(Map.of("TMPDIR", "/y", "USER", "a b")))).isEqualTo(Path.of("/y/cctk-javacpp-a_b"));
        assertThat(NcclLibraries.cacheDir(cctk.Environment.of(Map.of("USER", "bo")))).isEqualTo(Path.of("/tmp/cctk-javacpp-bo"));
    }

    @Test
    void mappedLibrariesAreReadFromProcMaps() {
        final String maps = "7f00-7f01 r-xp 00000000 08:01 1 /usr/lib/x86_64-linux-gnu/libcuda.so.535.261.03\n"
                + "7f02-7f03 r--p 00000000 08:01 2 /usr/local/cuda-13.0/lib/libcudart.so.13\n"
                + "7f03-7f04 r-xp 00000000 08:01 2 /usr/local/cuda-13.0/lib/libcudart.so.13\n"
                + "7f05-7f06 r-xp 00000000 08:01 3 /opt/nccl/lib/libnccl.so.2.27.3\n"
                + "7f07-7f08 r-xp 00000000 08:01 4 /usr/lib/libc.so.6\n7f09-7f0a rw-p 00000000 00:00 0 \n";
        assertThat(NcclLibraries.mapped(maps)).containsExactly("/usr/lib/x86_64-linux-gnu/libcuda.so.535.261.03",
                "/usr/local/cuda-13.0/lib/libcudart.so.13", "/opt/nccl/lib/libnccl.so.2.27.3");
    }

    @Test
    void theJarsPresetIsForCuda13ByDefault() {
        assertThat(NcclLibraries.CUDA_MAJOR).isBetween(12, 13);
    }

    /** The real thing on a machine without a GPU driver: loading must explain, now and on every later call. */
    @Test
    void loadingOnThisMachineExplainsItselfEveryTime(@TempDir final Path cache) {
        final boolean driver = Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libcuda.so.1"))
                || Files.exists(Path.of("/usr/lib64/libcuda.so.1"));
        assumeFalse(driver, "this host has an NVIDIA driver (libcuda.so.1), so loading may succeed here;"
                + " the explanation is checked on hosts without one and the GPU suite covers this one");
        final Map<String, String> env = Map.of("CCTK_JAVACPP_CACHE", cache.toString());
        final CctkException first = catchThrowableOfType(CctkException.class, () -> NcclLibraries.load(cctk.Environment.of(env), null));
        assertThat(first).isNotNull();
        assertThat(first.exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
        assertThat(first.getMessage()).startsWith("The nccl backend cannot start on ").contains("libcuda.so.1")
                .doesNotContain("UnsatisfiedLinkError", "NoClassDefFoundError");
        final CctkException second = catchThrowableOfType(CctkException.class, () -> NcclLibraries.load(cctk.Environment.of(env), null));
        assertThat(second).isSameAs(first);
    }

    @Test
    void theSitesLibnccleNeedingANewerGlibcIsNamedNotCctk() {
        final String text = NcclLibraries.explain("java.lang.UnsatisfiedLinkError: /tmp/c/libjninccl.so:"
                + " /lib64/libc.so.6: version `GLIBC_2.38' not found (required by /opt/nccl/lib/libnccl.so.2)\n",
                "linux-x86_64", 13, null);
        assertThat(text).contains("/opt/nccl/lib/libnccl.so.2 needs GLIBC_2.38", "not cctk's", "libnccl.so.2 built for"
                + " this OS").doesNotContain("-Pcuda12-oldglibc");
    }

    @Test
    void staleLibraryLinksInTheCacheAreDroppedAndTodaysKept(@TempDir final Path dir) throws Exception {
        final Path cache = Files.createDirectories(dir.resolve("cache/cctk.jar/org/bytedeco/cuda/linux-x86_64"));
        final Path old = Files.createDirectories(dir.resolve("old-module/lib"));
        final Path today = Files.createDirectories(dir.resolve("today/lib"));
        Files.writeString(old.resolve("libnccl.so.2"), "old");
        Files.writeString(today.resolve("libcudart.so.13"), "new");
        Files.createSymbolicLink(cache.resolve("libnccl.so.2"), old.resolve("libnccl.so.2"));
        Files.createSymbolicLink(cache.resolve("libcudart.so.13"), today.resolve("libcudart.so.13"));
        Files.writeString(cache.resolve("libjninccl.so"), "jni");
        final int dropped = NcclLibraries.dropLibraryLinks(dir.resolve("cache"),
                NcclLibraries.searched(cctk.Environment.of(Map.of("LD_LIBRARY_PATH", today.toString())), null));
        assertThat(dropped).isEqualTo(1);
        assertThat(cache.resolve("libnccl.so.2")).doesNotExist();
        assertThat(cache.resolve("libcudart.so.13")).isSymbolicLink();
        assertThat(cache.resolve("libjninccl.so")).isRegularFile();
        assertThat(old.resolve("libnccl.so.2")).hasContent("old");
    }

    /** The spec's library first, then LD_LIBRARY_PATH in order: the first real file of each soname is loaded. */
    @Test
    void theChosenLibrariesFollowTheSpecThenTheLibraryPath(@TempDir final Path d) throws Exception {
        final Path spec = Files.createDirectories(d.resolve("spec"));
        final Path mod1 = Files.createDirectories(d.resolve("mod1"));
        final Path mod2 = Files.createDirectories(d.resolve("mod2"));
        Files.writeString(spec.resolve("libnccl.so.2"), "x");
        Files.writeString(mod1.resolve("libcudart.so.13"), "x");
        Files.writeString(mod2.resolve("libcudart.so.13"), "x");
        Files.writeString(mod2.resolve("libnccl.so.2"), "x");
        final String path = d.resolve("none") + "::" + mod1 + ":" + mod2;
        assertThat(NcclLibraries.chosen(spec.toString(), path, 13)).containsExactly(
                Map.entry("libcudart.so.13", mod1.resolve("libcudart.so.13")),
                Map.entry("libnccl.so.2", spec.resolve("libnccl.so.2")));
        assertThat(NcclLibraries.chosen(null, path, 13)).containsEntry("libnccl.so.2", mod2.resolve("libnccl.so.2"));
        final Path own = Files.writeString(d.resolve("libnccl-custom.so"), "x");
        assertThat(NcclLibraries.chosen(own.toString(), path, 13)).containsEntry("libnccl.so.2", own);
        assertThat(NcclLibraries.chosen(null, path, 12)).containsOnlyKeys("libnccl.so.2");
        assertThat(NcclLibraries.chosen(null, "", 13)).isEmpty();
    }

    /**
     * A process holds one libnccl.so.2: a second choice of another file is refused naming both files; the same file
     * again (its directory, its file, a link to it) or no choice at all passes.
     */
    @Test
    void aSecondLibncclInOneProcessIsRefusedNamingBoth(@TempDir final Path d) throws Exception {
        final Path first = Files.writeString(Files.createDirectories(d.resolve("a")).resolve("libnccl.so.2"), "a");
        final Path other = Files.writeString(Files.createDirectories(d.resolve("b")).resolve("libnccl.so.2"), "b");
        final Path link = Files.createSymbolicLink(Files.createDirectories(d.resolve("c")).resolve("libnccl.so.2"),
                first);
        final String text = SecondChoice.reason(first, first.getParent().toString(), other.getParent().toString(),
                other);
        assertThat(text).startsWith("The nccl backend cannot use " + other + " (nccl.library: " + other.getParent()
                + ")").contains("already loaded " + first + " (nccl.library: " + first.getParent() + ")",
                "the figures would be " + first + "'s", "a run of its own").doesNotContain("\n");
        assertThat(SecondChoice.reason(first, null, null, other)).contains(other + " (first on LD_LIBRARY_PATH)");
        assertThat(SecondChoice.reason(first, null, d.resolve("none").toString(), null)).contains("cannot use "
                + d.resolve("none"));
        assertThat(SecondChoice.reason(first, null, link.getParent().toString(), link)).isNull();
        assertThat(SecondChoice.reason(first, first.toString(), first.getParent().toString(), first)).isNull();
        assertThat(SecondChoice.reason(first, null, null, null)).isNull();
        assertThat(SecondChoice.reason(null, null, "/x", other)).isNull();
    }
}
