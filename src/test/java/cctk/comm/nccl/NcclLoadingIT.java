package cctk.comm.nccl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar as users run it, on this machine without a GPU driver: the nccl backend explains itself in one
 * paragraph with exit code 3, and commands that don't run it never load JavaCPP.
 */
@Tag("slow")
@Timeout(180)
class NcclLoadingIT {

    @TempDir
    Path dir;

    record Run(int code, String out) {
    }

    private Run cctk(final List<String> jvm, final String... args) throws IOException, InterruptedException {
        final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        cmd.addAll(jvm);
        cmd.add("-jar");
        cmd.add(System.getProperty("cctk.jar", "target/cctk.jar"));
        cmd.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).directory(dir.toFile());
        pb.environment().put("CCTK_JAVACPP_CACHE", dir.resolve("javacpp").toString());
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), out);
    }

    private Path spec() throws IOException {
        return Files.writeString(dir.resolve("gpu1.yaml"), "job: {name: gpu1, output_dir: " + dir.resolve("out")
                + "}\nresources: {nodes: 1, tasks_per_node: 1, gpus_per_node: 1}\n"
                + "benchmark: {backends: [nccl], tasks: [1], collectives: [all_reduce], sizes: [1KiB], timeout: 30s}\n");
    }

    @Test
    void withoutADriverTheRankSaysSoInOneParagraph() throws Exception {
        final boolean driver = Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libcuda.so.1"))
                || Files.exists(Path.of("/usr/lib64/libcuda.so.1"));
        assumeFalse(driver, "this host has an NVIDIA driver (libcuda.so.1), so the nccl backend may start here;"
                + " the no-driver paragraph is checked on hosts without one and the GPU suite covers this one");
        final Run r = cctk(List.of(), "run", spec().toString());
        assertThat(r.code()).as(r.out()).isEqualTo(3);
        assertThat(r.out()).contains("The nccl backend cannot start on", "no NVIDIA driver on this node",
                "libcuda.so.1").doesNotContain("UnsatisfiedLinkError", "NoClassDefFoundError", "\tat ");
        assertThat(dir.resolve("javacpp")).isDirectory();
    }

    @Test
    void otherCommandsNeverLoadJavaCpp() throws Exception {
        final Run help = cctk(List.of("-Xlog:class+load=info"), "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("cctk.cli.Main").doesNotContain("org.bytedeco");
        final Run validate = cctk(List.of("-Xlog:class+load=info"), "validate", spec().toString());
        assertThat(validate.out()).contains("cctk.spec.NcclOptions").doesNotContain("org.bytedeco");
        assertThat(dir.resolve("javacpp")).doesNotExist();
    }
}
