package cctk.comm.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/device-gpu-test.sh finds NVIDIA's pip libraries in every layout: CUDA 13 wheels (nvidia/cu13/lib), the
 * older per-library ones (nvidia/nccl/lib), any sys.path entry (venvs), the user site, and conda's lib directory
 * (before: only the first site-packages and nvidia/{cuda_runtime,nccl}/lib).
 */
@Timeout(120)
class DeviceRecipeTest {

    @TempDir
    Path dir;

    private String libdirs(final Map<String, String> env) throws IOException, InterruptedException {
        return recipe("libdirs", env);
    }

    private String recipe(final String mode, final Map<String, String> env) throws IOException, InterruptedException {
        final ProcessBuilder pb = new ProcessBuilder("bash", "scripts/device-gpu-test.sh", mode)
                .redirectErrorStream(true);
        pb.environment().putAll(env);
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(100, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    private Path lib(final String at, final String name) throws IOException {
        final Path d = Files.createDirectories(dir.resolve(at));
        Files.writeString(d.resolve(name), "");
        return d;
    }

    @Test
    void everyLayoutOfThePipLibrariesIsFound() throws Exception {
        final Path cu13 = lib("venv/site/nvidia/cu13/lib", "libcudart.so.13");
        final Path nccl = lib("venv/site/nvidia/nccl/lib", "libnccl.so.2");
        final Path conda = lib("conda/lib", "libnccl.so.2");
        lib("venv/site/nvidia/cublas/lib", "libcublas.so.13");
        final String out = libdirs(Map.of("PYTHONPATH", dir.resolve("venv/site").toString(), "CONDA_PREFIX",
                dir.resolve("conda").toString()));
        assertThat(out.lines()).contains(cu13.toString(), nccl.toString(), conda.toString())
                .noneMatch(l -> l.contains("cublas"));
    }

    @Test
    void theUserSiteIsSearchedToo() throws Exception {
        final Path home = Files.createDirectories(dir.resolve("home"));
        final ProcessBuilder pb = new ProcessBuilder("python3", "-c", "import site; print(site.getusersitepackages())");
        pb.environment().put("HOME", home.toString());
        final Process p = pb.start();
        final String site = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        final Path d = lib(home.relativize(Path.of(site)).toString().isEmpty() ? "x" : "home/"
                + home.relativize(Path.of(site)) + "/nvidia/cu13/lib", "libnccl.so.2");
        assertThat(libdirs(Map.of("HOME", home.toString())).lines()).contains(d.toString());
    }

    /** A lent device allows 600 s a command and 15 minutes in all: each step fits 540 s, the run at most 12 min. */
    @Test
    void everyStepFitsOneDeviceCommandAndTheRunItsBudget() throws Exception {
        for (final Map<String, String> env : java.util.List.of(Map.<String, String>of(), Map.of("CCTK_DEVICE_TOTAL_S",
                "5000", "CCTK_DEVICE_STEP_S", "9999"))) {
            final String out = recipe("plan", env);
            final java.util.List<Integer> limits = out.lines().filter(l -> l.startsWith("step "))
                    .map(l -> Integer.parseInt(l.replaceAll(".* (\\d+) s$", "$1"))).toList();
            assertThat(limits).as(out).isNotEmpty().allMatch(s -> s <= 540);
            final int budget = Integer.parseInt(out.replaceAll("(?s).*budget (\\d+) s.*", "$1"));
            assertThat(budget).as(out).isLessThanOrEqualTo(720);
            // the GPU suite comes before cctk run and torch: the most informative part runs while time is left
            assertThat(out.indexOf("gpu-suite.txt")).isLessThan(out.indexOf("cctk run")).isLessThan(
                    out.indexOf("torch"));
        }
        assertThat(recipe("plan", Map.of()).lines().filter(l -> l.startsWith("budget"))).singleElement().asString()
                .startsWith("budget 540 s");
    }

    /**
     * Every GPU test class (tag gpu) runs in the recipe: selected by its run, and its step named in the plan after
     * the GPU suite and before cctk run (NcclNonBlockingGpuTest was left out before).
     */
    @Test
    void everyGpuTestClassIsInTheRecipe() throws Exception {
        final String script = Files.readString(Path.of("scripts/device-gpu-test.sh"));
        final java.util.List<String> gpuClasses;
        try (java.util.stream.Stream<Path> files = Files.walk(Path.of("src/test/java"))) {
            gpuClasses = files.filter(f -> f.toString().endsWith(".java")).filter(f -> {
                try {
                    return Files.readString(f).contains("@Tag(\"gpu\")");
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).map(f -> Path.of("src/test/java").relativize(f).toString().replace('/', '.').replace(".java", ""))
                    .toList();
        }
        assertThat(gpuClasses).contains("cctk.comm.nccl.NcclNonBlockingGpuTest", "cctk.comm.nccl.NcclGpuTest");
        for (final String c : gpuClasses) {
            assertThat(script).as(c).contains("--select-class " + c + " ");
        }
        final String plan = recipe("plan", Map.of());
        assertThat(plan).contains("step gpu-suite-nonblocking.txt ");
        assertThat(plan.indexOf("gpu-suite.txt")).isLessThan(plan.indexOf("gpu-suite-nonblocking.txt"));
        assertThat(plan.indexOf("gpu-suite-nonblocking.txt")).isLessThan(plan.indexOf("cctk run"));
    }

    /** A box with only the system's CUDA and NCCL (no pip wheels): their directories are used. */
    @Test
    void withoutPipLibrariesTheSystemsAreFound() throws Exception {
        final Path toolkit = lib("cuda/lib64", "libcudart.so.13");
        final Path distro = lib("usr/lib64", "libnccl.so.2");
        final Path other = lib("usr/lib", "libz.so.1");
        final String out = recipe("syslibdirs", Map.of("CCTK_DEVICE_SYSTEM_LIBS", toolkit + " " + distro + " "
                + other + " " + dir.resolve("absent")));
        assertThat(out.lines()).containsExactly(toolkit.toRealPath().toString(), distro.toRealPath().toString());
    }
}
