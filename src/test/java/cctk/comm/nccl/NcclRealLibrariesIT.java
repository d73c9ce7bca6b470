package cctk.comm.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.AdversarialTally;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built jar against NVIDIA's real libraries on a machine without a GPU: NCCL 2.30 and cudart 13 from NVIDIA's
 * wheels and the R535 driver's libcuda.so.1 from Debian non-free, fetched by scripts/fetch-nvidia-libs.sh into
 * $CCTK_NVIDIA_CACHE (default /var/cache/cctk-nvidia). It loads them, reads their versions, makes a real NCCL
 * unique id and carries it to a second process, guards symbols, and stops with exit code 3 and one paragraph for
 * every missing or mismatched piece. Without the fetched libraries every test skips and says why.
 */
@Tag("nvlib")
@Timeout(240)
class NcclRealLibrariesIT {

    private static final Path CACHE = Path.of(System.getenv().getOrDefault("CCTK_NVIDIA_CACHE",
            "/var/cache/cctk-nvidia"));
    private static final Path CU13 = CACHE.resolve("cu13/lib");
    private static final Path DRIVER = CACHE.resolve("driver/lib");
    private static final AdversarialTally TALLY = new AdversarialTally("nccl-environment");

    @TempDir
    Path dir;
    /** JavaCPP's cache for the next child; null: one in the test's directory. */
    private Path cache;

    record Run(int code, String out) {
    }

    @BeforeAll
    static void librariesFetched() {
        final List<String> missing = new ArrayList<>();
        for (final Path p : List.of(CU13.resolve("libnccl.so.2"), CU13.resolve("libcudart.so.13"),
                DRIVER.resolve("libcuda.so.1"))) {
            if (!Files.exists(p)) {
                missing.add(p.toString());
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        final String why = "NcclRealLibrariesIT needs NVIDIA's libraries, which were not fetched (" + missing
                + "); run scripts/fetch-nvidia-libs.sh (.ci/run does) to test against them";
        // CI fetched them a step before: there a missing library is a failure, never a quiet skip
        assertThat("true".equals(System.getenv("CI"))).as(why).isFalse();
        final String bar = "!".repeat(100);
        System.out.println(bar + "\n!! SKIPPED, NOT PASSED: " + why + "\n" + bar);
        Assumptions.abort("SKIPPED, NOT PASSED: " + why);
    }

    @AfterAll
    static void report() {
        TALLY.report();
    }

    private Run java(final List<String> libs, final List<String> args) throws IOException, InterruptedException {
        final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        cmd.addAll(args);
        final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).directory(dir.toFile());
        pb.environment().put("LD_LIBRARY_PATH", String.join(":", libs));
        pb.environment().put("CCTK_JAVACPP_CACHE", (cache == null ? dir.resolve("javacpp") : cache).toString());
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), out);
    }

    private static String jar() {
        return Path.of(System.getProperty("cctk.jar", "target/cctk.jar")).toAbsolutePath().toString();
    }

    private Run probe(final List<String> libs, final String... args) throws IOException, InterruptedException {
        return probe(List.of(), libs, args);
    }

    private Run probe(final List<String> jvm, final List<String> libs, final String... args)
            throws IOException, InterruptedException {
        final List<String> a = new ArrayList<>(jvm);
        a.addAll(List.of("-cp", jar() + File.pathSeparator
                + Path.of("target/test-classes").toAbsolutePath(), RealLibrariesProbe.class.getName()));
        a.addAll(List.of(args));
        final Run r = java(libs, a);
        System.out.println("probe " + String.join(" ", args) + " -> " + r.code() + "\n" + r.out().trim());
        return r;
    }

    /** cctk run of a one-GPU nccl spec, as a user starts it. */
    private Run run(final List<String> libs) throws IOException, InterruptedException {
        final Path spec = Files.writeString(dir.resolve("gpu1.yaml"), "job: {name: gpu1, output_dir: "
                + dir.resolve("out") + "}\nresources: {nodes: 1, tasks_per_node: 1, gpus_per_node: 1}\n"
                + "benchmark: {backends: [nccl], tasks: [1], collectives: [all_reduce], sizes: [1KiB],"
                + " timeout: 30s}\n");
        final Run r = java(libs, List.of("-jar", jar(), "run", spec.toString()));
        System.out.println("cctk run with LD_LIBRARY_PATH=" + libs + " -> " + r.code() + "\n" + r.out().trim());
        return r;
    }

    private static void environmentError(final String input, final Run r, final String... says) {
        final boolean trace = r.out().contains("\tat ") || r.out().contains("Exception");
        final boolean clear = r.code() == 3 && !trace && List.of(says).stream().allMatch(r.out()::contains);
        TALLY.record(input, trace ? AdversarialTally.Outcome.STACK_TRACE : r.code() != 3
                ? AdversarialTally.Outcome.WRONG_EXIT_CODE : clear ? AdversarialTally.Outcome.CLEAR_ERROR
                : AdversarialTally.Outcome.WRONG_EXIT_CODE);
        assertThat(r.code()).as(r.out()).isEqualTo(3);
        assertThat(r.out()).contains(says).doesNotContain("\tat ", "UnsatisfiedLinkError", "NoClassDefFoundError");
    }

    @Test
    void theRealLibrariesLoadAndSayTheirVersions() throws Exception {
        final Run r = probe(List.of(CU13.toString(), DRIVER.toString()), "versions");
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).contains("cudart 0 13", "driver 0 12020", "nccl 0 2300")
                .contains(CU13.resolve("libnccl.so.2").toString(), "libcuda.so.535")
                .contains("loaded libcudart " + CU13.resolve("libcudart.so.13") + " libnccl "
                        + CU13.resolve("libnccl.so.2"));
    }

    /**
     * Decoy libnccl.so.2 and libcudart.so.13 on a path JavaCPP searches before java.library.path (with pathsFirst,
     * as it does the preset's link paths /usr/local/cuda/lib64 and /usr/lib64; here its preloadpath property, so
     * no system directory is touched): the libraries the spec and LD_LIBRARY_PATH name are loaded all the same,
     * in the directory and in the file form of nccl.library.
     */
    @Test
    void decoysOnJavacppsPathsLoseToTheChosenLibraries() throws Exception {
        final Path decoy = Files.createDirectories(dir.resolve("decoy"));
        compile(decoy, "libnccl.so.2", "int ncclGetVersion(int *v) { *v = 29903; return 0; }");
        compile(decoy, "libcudart.so.13", "int cudaRuntimeGetVersion(int *v) { *v = 13999; return 0; }");
        final Path cudartOnly = Files.createDirectories(dir.resolve("cudart"));
        Files.createSymbolicLink(cudartOnly.resolve("libcudart.so.13"), CU13.resolve("libcudart.so.13"));
        for (final Path library : List.of(CU13, CU13.resolve("libnccl.so.2"))) {
            final Run r = probe(List.of("-Dorg.bytedeco.javacpp.platform.preloadpath=" + decoy,
                    "-Dcctk.probe.library=" + library), List.of(cudartOnly.toString(), DRIVER.toString()), "versions");
            assertThat(r.code()).as(r.out()).isZero();
            assertThat(r.out()).contains("cudart 0 13000", "nccl 0 2300", "loaded libcudart "
                    + CU13.resolve("libcudart.so.13") + " libnccl " + CU13.resolve("libnccl.so.2"))
                    .doesNotContain(decoy.toString());
        }
    }

    /**
     * The same in the system's own directory: decoys in /usr/lib64, one of the preset's link paths, which JavaCPP
     * searches before java.library.path, as a distribution's libnccl would lie there. It plants files in a system
     * directory, so it runs only as root and only where asked (CI=true, or -Dcctk.systemDecoys=true); it never
     * replaces a file that is there, and removes what it planted.
     */
    @Test
    void decoysInUsrLib64LoseToTheChosenLibraries() throws Exception {
        final Path lib64 = Path.of("/usr/lib64");
        final boolean asked = "true".equals(System.getenv("CI")) || Boolean.getBoolean("cctk.systemDecoys");
        if (!asked || !cctk.Strangers.canPlant() || !Files.isDirectory(lib64)
                || Files.exists(lib64.resolve("libnccl.so.2")) || Files.exists(lib64.resolve("libcudart.so.13"))) {
            final String text = "decoys in /usr/lib64 need root, CI=true (or -Dcctk.systemDecoys=true) and no"
                    + " libnccl.so.2 or libcudart.so.13 there already";
            System.out.println("!".repeat(100) + "\n!! SKIPPED, NOT PASSED: " + text + "\n" + "!".repeat(100));
            Assumptions.abort("SKIPPED, NOT PASSED: " + text);
        }
        final Path built = Files.createDirectories(dir.resolve("system-decoy"));
        compile(built, "libnccl.so.2", "int ncclGetVersion(int *v) { *v = 29903; return 0; }");
        compile(built, "libcudart.so.13", "int cudaRuntimeGetVersion(int *v) { *v = 13999; return 0; }");
        final List<Path> planted = new java.util.ArrayList<>();
        try {
            for (final String so : List.of("libnccl.so.2", "libcudart.so.13")) {
                planted.add(Files.copy(built.resolve(so), lib64.resolve(so)));
            }
            final Run r = probe(List.of("-Dcctk.probe.library=" + CU13), List.of(CU13.toString(),
                    DRIVER.toString()), "versions");
            assertThat(r.code()).as(r.out()).isZero();
            assertThat(r.out()).contains("cudart 0 13000", "nccl 0 2300", "loaded libcudart "
                    + CU13.resolve("libcudart.so.13") + " libnccl " + CU13.resolve("libnccl.so.2"))
                    .doesNotContain("29903", "13999", lib64.resolve("libnccl.so.2").toString());
        } finally {
            for (final Path p : planted) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static void compile(final Path d, final String soname, final String code)
            throws IOException, InterruptedException {
        final Path c = Files.writeString(d.resolve(soname + ".c"), code + "\n");
        final Process p = new ProcessBuilder("cc", "-shared", "-fPIC", "-Wl,-soname," + soname, "-o",
                d.resolve(soname).toString(), c.toString()).inheritIO().start();
        Assumptions.assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "no C compiler for decoys");
    }

    @Test
    void aRealUniqueIdCrossesToASecondProcess() throws Exception {
        final Path store = Files.createDirectories(dir.resolve("store"));
        final List<String> libs = List.of(CU13.toString(), DRIVER.toString());
        final Thread[] t = new Thread[1];
        final Run[] rank1 = new Run[1];
        t[0] = new Thread(() -> {
            try {
                rank1[0] = probe(libs, "share", store.toString(), "1");
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        t[0].start();
        final Run rank0 = probe(libs, "share", store.toString(), "0");
        t[0].join(200_000);
        assertThat(rank0.code()).as(rank0.out()).isZero();
        assertThat(rank1[0].code()).as(rank1[0].out()).isZero();
        final String id0 = rank0.out().lines().filter(l -> l.startsWith("shared ")).findFirst().orElseThrow();
        final String id1 = rank1[0].out().lines().filter(l -> l.startsWith("shared ")).findFirst().orElseThrow();
        assertThat(id1).isEqualTo(id0).hasSize("shared ".length() + 256).isNotEqualTo("shared " + "0".repeat(256));
    }

    @Test
    void symbolsAreLookedUpBeforeTheyAreCalled() throws Exception {
        final List<String> libs = List.of(CU13.toString(), DRIVER.toString());
        assertThat(probe(libs, "has", "ncclAlltoAll").out()).contains("has ncclAlltoAll true");
        assertThat(probe(libs, "has", "ncclGetLastError").out()).contains("has ncclGetLastError true");
        assertThat(probe(libs, "has", "ncclNotInAnyNccl").out()).contains("has ncclNotInAnyNccl false");
        for (final String f : NcclLibraries.REQUIRED) {
            assertThat(probe(libs, "has", f).out()).contains("has " + f + " true");
        }
    }

    /** The real NCCL refusing a send inside a group: cctk closes the group anyway and names NCCL's last error. */
    @Test
    void aFailingCallInsideAGroupLeavesNoGroupOpen() throws Exception {
        final Run r = probe(List.of(CU13.toString(), DRIVER.toString()), "group");
        assertThat(r.code()).as(r.out()).isZero();
        // the raw sequence: the group's deferred error comes back from the ncclGroupEnd that closes it
        assertThat(r.out()).contains("raw-send 4", "raw-extra-group-end 4");
        assertThat(r.out()).contains("sendrecv ENVIRONMENT NCCL sendrecv of 16 bytes on rank 0 (GPU 0) failed:"
                + " invalid argument", "comm argument is NULL");
        assertThat(r.out()).as("a group left open would be ended here (4), not refused (5: not in a group)")
                .contains("extra-group-end 5");
    }

    /**
     * The non-blocking communicator (ncclCommInitRankConfig, config.blocking = 0) through the real NCCL 2.30 and
     * cudart 13 with the R535 driver: NCCL refuses it (CUDA's error 35). cctk aborts it on the driving thread,
     * once, and says so in one paragraph with exit-code class ENVIRONMENT; no thread of cctk's is left and the JVM
     * lives on.
     */
    @Test
    void aRefusedNonBlockingInitIsAbortedOnTheDrivingThreadInOneParagraph() throws Exception {
        final Run r = probe(List.of(CU13.toString(), DRIVER.toString()), "init");
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).contains("unique-id 0", "abort on main", "aborts 1 aborted true", "threads []")
                .contains("init ENVIRONMENT ncclCommInitRankConfig on rank 0 (GPU 0, world 1) failed: unhandled cuda"
                        + " error", "(ncclResult 1)", "CUDA driver version is insufficient for CUDA runtime version",
                        "nccl.debug: true")
                .doesNotContain("\tat ", "SIGSEGV", "hs_err");
        final String line = r.out().lines().filter(l -> l.startsWith("init ")).findFirst().orElseThrow();
        assertThat(line).as("one paragraph").endsWith("debug file.");
    }

    /**
     * NCCL_CONFIG_INITIALIZER as cctk builds it through the preset: size, magic and version set, blocking 0, and
     * every other field undefined (INT_MIN or NULL) so NCCL picks its default. The real NCCL checks the CUDA driver
     * before it reads the config, so whether it accepts it is shown on a GPU only (NcclNonBlockingGpuTest).
     */
    @Test
    void theNonBlockingConfigIsNcclsInitializerWithBlockingZero() throws Exception {
        final Run r = probe(List.of(CU13.toString(), DRIVER.toString()), "config");
        assertThat(r.code()).as(r.out()).isZero();
        final String sizeof = r.out().lines().filter(l -> l.startsWith("sizeof ")).findFirst().orElseThrow();
        assertThat(r.out()).contains("config blocking 0\n", "config magic " + 0xcafebeef + "\n",
                "config version 23007\n", "config size " + sizeof.substring("sizeof ".length()) + "\n",
                "config minCTAs " + Integer.MIN_VALUE + "\n", "config netName NULL\n");
        final List<String> fields = r.out().lines().filter(l -> l.startsWith("config ")).toList();
        assertThat(fields).hasSizeGreaterThan(10);
        for (final String f : fields) {
            if (!f.matches("config (blocking|magic|version|size) .*")) {
                assertThat(f).as("left undefined").matches("config \\w+ (" + Integer.MIN_VALUE + "|NULL)");
            }
        }
    }

    /** A freed (aborted) communicator is never handed to NCCL again: cctk refuses the call in one paragraph. */
    @Test
    void anAbortedCommunicatorIsNotCalledAgain() throws Exception {
        final Run r = probe(List.of(CU13.toString(), DRIVER.toString()), "aborted");
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).contains("allreduce ENVIRONMENT The nccl backend cannot run all_reduce of 16 bytes on"
                + " rank 0 (GPU 0): rank 0's communicator was aborted after an earlier failure", "aborts 1")
                .doesNotContain("invalid argument", "comm argument is NULL");
    }

    /**
     * A process holds one libnccl.so.2: after the real NCCL loaded from its directory, a second load asking for
     * another libnccl.so.2 (a stub elsewhere) is refused naming both; the same file again in its file form, or no
     * nccl.library with nothing else on the library path, passes.
     */
    @Test
    void aSecondLibncclInOneProcessIsRefusedNamingBoth() throws Exception {
        final Path copy = stubNccl("other", 23007);
        final Run r = probe(List.of("-Dcctk.probe.library=" + CU13), List.of(DRIVER.toString()), "second",
                CU13.resolve("libnccl.so.2").toString(), "-", copy.toString());
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).contains("second " + CU13.resolve("libnccl.so.2") + " ok", "second - ok",
                "second " + copy + " ENVIRONMENT The nccl backend cannot use " + copy.resolve("libnccl.so.2")
                + " (nccl.library: " + copy + ")", "already loaded " + CU13.resolve("libnccl.so.2")
                + " (nccl.library: " + CU13 + ")");
    }

    /**
     * JavaCPP's cache on a noexec tmpfs (root only; skipped loudly otherwise): cctk run stops with exit code 3 and
     * one paragraph naming the cache, its mount and CCTK_JAVACPP_CACHE, not the generic load failure.
     */
    @Test
    void aCacheOnANoexecMountIsNamedWithItsFix() throws Exception {
        final Path mount = Files.createDirectories(dir.resolve("noexec"));
        final Process m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "noexec,size=64m", "tmpfs",
                mount.toString()).redirectErrorStream(true).start();
        final String said = new String(m.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!m.waitFor(30, TimeUnit.SECONDS) || m.exitValue() != 0) {
            final String why = "a noexec tmpfs needs root (with CAP_SYS_ADMIN): " + said;
            final String bar = "!".repeat(100);
            System.out.println(bar + "\n!! SKIPPED, NOT PASSED: " + why + "\n" + bar);
            Assumptions.abort("SKIPPED, NOT PASSED: " + why);
        }
        try {
            cache = mount.resolve("cache");
            environmentError("JavaCPP cache on a noexec mount", run(List.of(CU13.toString(), DRIVER.toString())),
                    "JavaCPP's library cache " + cache + " (chosen by CCTK_JAVACPP_CACHE) is on a file system"
                    + " mounted noexec (" + mount.toRealPath() + ")", "Set CCTK_JAVACPP_CACHE");
        } finally {
            cache = null;
            final Process u = new ProcessBuilder("umount", "-l", mount.toString()).inheritIO().start();
            u.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void withoutADriverTheRunSaysSo() throws Exception {
        environmentError("no libcuda.so.1", run(List.of(CU13.toString())), "no NVIDIA driver on this node",
                "libcuda.so.1");
    }

    /** The real R535 driver (CUDA 12.2) with the real cudart 13: CUDA says error 35; cctk names both versions. */
    @Test
    void aDriverOfAnOlderMajorIsRefusedWithBothVersions() throws Exception {
        final Run devices = probe(List.of(CU13.toString(), DRIVER.toString()), "devices");
        assertThat(devices.out()).contains("devices 35 0 CUDA driver version is insufficient for CUDA runtime"
                + " version");
        environmentError("driver 535 (CUDA 12.2), cudart 13", run(List.of(CU13.toString(), DRIVER.toString())),
                "supports CUDA 12.2, an older major than the CUDA 13.0 runtime", "-Pcuda12");
    }

    @Test
    void withoutLibncclTheRunSaysSo() throws Exception {
        final Path cudartOnly = Files.createDirectories(dir.resolve("cudart"));
        Files.createSymbolicLink(cudartOnly.resolve("libcudart.so.13"), CU13.resolve("libcudart.so.13"));
        environmentError("no libnccl.so.2", run(List.of(cudartOnly.toString(), DRIVER.toString())),
                "NCCL (libnccl.so.2) was not found", "module load nccl");
    }

    /** A stub libnccl.so.2 whose only function answers a version: only the version number is faked. */
    private Path stubNccl(final String name, final int version) throws IOException, InterruptedException {
        final Path d = Files.createDirectories(dir.resolve(name));
        Files.createSymbolicLink(d.resolve("libcudart.so.13"), CU13.resolve("libcudart.so.13"));
        final Path c = Files.writeString(d.resolve("stub.c"), "int ncclGetVersion(int *v) { *v = " + version
                + "; return 0; }\n");
        final Process p = new ProcessBuilder("cc", "-shared", "-fPIC", "-Wl,-soname,libnccl.so.2", "-o",
                d.resolve("libnccl.so.2").toString(), c.toString()).inheritIO().start();
        Assumptions.assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "no C compiler for the stub");
        return d;
    }

    /**
     * glibc too old, through the real dynamic loader: a stub libnccl.so.2 that needs memcpy@GLIBC_2.14, its version
     * string edited in place to GLIBC_2.99 (no C library has it), so dlopen fails as on a node older than the
     * library.
     */
    @Test
    void aLibncclNeedingANewerGlibcIsNamedAsTheSitesLibrary() throws Exception {
        final Path d = Files.createDirectories(dir.resolve("glibc"));
        Files.createSymbolicLink(d.resolve("libcudart.so.13"), CU13.resolve("libcudart.so.13"));
        final Path c = Files.writeString(d.resolve("stub.c"), "#include <string.h>\n__asm__(\".symver memcpy,"
                + "memcpy@GLIBC_2.14\");\nvoid *(*volatile cp)(void *, const void *, size_t) = memcpy;\n"
                + "int ncclGetVersion(int *v) { int x = 23007; cp(v, &x, sizeof x); return 0; }\n");
        final Path so = d.resolve("libnccl.so.2");
        final Process p = new ProcessBuilder("cc", "-shared", "-fPIC", "-Wl,-soname,libnccl.so.2", "-o",
                so.toString(), c.toString()).inheritIO().start();
        Assumptions.assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "no C compiler for the stub");
        final byte[] b = Files.readAllBytes(so);
        final byte[] from = "GLIBC_2.14\0".getBytes(StandardCharsets.US_ASCII);
        final byte[] to = "GLIBC_2.99\0".getBytes(StandardCharsets.US_ASCII);
        int edits = 0;
        for (int i = 0; i + from.length <= b.length; i++) {
            if (java.util.Arrays.equals(b, i, i + from.length, from, 0, from.length)) {
                System.arraycopy(to, 0, b, i, to.length);
                edits++;
            }
        }
        assertThat(edits).isPositive();
        Files.write(so, b);
        environmentError("libnccl needing GLIBC_2.99 (stub)", run(List.of(d.toString(), DRIVER.toString())),
                so + " needs GLIBC_2.99", "the site's library, not cctk's");
    }

    @Test
    void anNcclOlderThanCctkNeedsIsRefused() throws Exception {
        environmentError("NCCL 2.6.4 (stub: version only)", run(List.of(stubNccl("old", 2604).toString(),
                DRIVER.toString())), "the loaded NCCL is 2.6.4; cctk needs 2.7.0 or newer");
    }

    /** Calling a function the loaded libnccl lacks kills the JVM (exit 127); cctk must refuse before. */
    @Test
    void anNcclLackingAFunctionIsRefusedNotCrashedOn() throws Exception {
        final Run r = run(List.of(stubNccl("bare", 23007).toString(), DRIVER.toString()));
        assertThat(r.out()).doesNotContain("symbol lookup error");
        environmentError("libnccl without ncclCommInitRank (stub)", r, "lacks ncclGetUniqueId, ncclCommInitRank",
                "kill the process");
    }

    @Test
    void everyEnvironmentErrorNamesThisHost() throws Exception {
        final Run r = run(List.of(CU13.toString()));
        assertThat(r.out()).contains(NcclLibraries.hostName());
        assertThat(Map.of("code", r.code())).containsEntry("code", 3);
    }
}
