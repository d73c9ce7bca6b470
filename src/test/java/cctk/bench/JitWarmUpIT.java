package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JIT warm-up on a runtime without java.management, as the device recipe's jlinked runtime is: the built jar
 * runs a tcp world-1 spec with the default warm-up and finishes (before the fix: NoClassDefFoundError, exit 4).
 */
@Tag("slow")
@Timeout(180)
class JitWarmUpIT {

    @TempDir
    Path dir;

    @Test
    void aRuntimeWithoutJavaManagementStillRunsTheWarmUp() throws IOException, InterruptedException {
        final Path spec = Files.writeString(dir.resolve("one.yaml"), "job: {name: one, output_dir: "
                + dir.resolve("out")
                + "}\nresources: {nodes: 1, tasks_per_node: 1}\nbenchmark: {backends: [tcp], tasks: [1],"
                + " collectives: [all_reduce], sizes: [1KiB], iters: 2, warmup: 1, jit_warmup: 1s, timeout: 60s}\n");
        final ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", Path.of(System.getProperty("cctk.jar", "target/cctk.jar")).toAbsolutePath().toString(), "run",
                spec.toString()).redirectErrorStream(true).directory(dir.toFile());
        // the ranks are child JVMs: the option reaches every one of them through the environment
        pb.environment().put("JDK_JAVA_OPTIONS", "--limit-modules java.base,jdk.unsupported,java.logging");
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(150, TimeUnit.SECONDS)).isTrue();
        assertThat(out).doesNotContain("NoClassDefFoundError", "java/lang/management");
        assertThat(p.exitValue()).as(out).isZero();
        try (var files = Files.walk(dir.resolve("out"))) {
            assertThat(files.filter(f -> f.toString().endsWith(".csv")).toList()).as(out).isNotEmpty();
        }
    }

    @Test
    void theCompilerClockIsReadWhereTheModuleIsThere() {
        assertThat(ModuleLayer.boot().findModule("java.management")).isPresent();
        assertThat(JitClock.compiler()).isNotNull();
        assertThat(List.of(JitClock.compiler().getAsLong())).allMatch(t -> t >= 0);
    }
}
