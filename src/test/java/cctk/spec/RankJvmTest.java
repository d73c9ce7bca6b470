package cctk.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A rank's JVM is sized from the plan and shares the archive beside the jar, silently when it cannot. */
@Timeout(60)
class RankJvmTest {

    @TempDir
    Path dir;

    private JobSpec spec(final String backends, final String sizes) throws Exception {
        final Path f = dir.resolve("s.yaml");
        Files.writeString(f, "job: {name: t}\nresources: {nodes: 1, tasks_per_node: 4, gpus_per_node: 4}\n"
            + "benchmark: {backends: " + backends + ", tasks: [2, 4], sizes: " + sizes + ", dtypes: [float32, float64]}\n");
        return SpecParser.parse(f);
    }

    @Test
    void directMemoryComesFromTheLargestMessageAndTheHeapStaysSmall() throws Exception {
        // 16 Mi elements of float64 = 128 MiB: input, output and tcp's copy, 3 peers x 512 KiB staging, 64 MiB
        final List<String> tcp = RankJvm.options(spec("[tcp]", "[1KiB, 16777216]"), Path.of("/opt/cctk.jar"));
        assertThat(tcp).contains("-Xmx257m", "-XX:MaxDirectMemorySize=450m", "-XX:+UseSerialGC",
            "-XX:+UnlockDiagnosticVMOptions", "-XX:GuaranteedSafepointInterval=0", "-XX:-UseDynamicNumberOfCompilerThreads",
            "-XX:SharedArchiveFile=/opt/cctk.jsa", "-Xshare:auto").doesNotContain(
            "-Dorg.bytedeco.javacpp.maxPhysicalBytes=0");
        // buffers on the GPU: only the base in direct memory; JavaCPP must not cap the process's memory
        final List<String> nccl = RankJvm.options(spec("[nccl]", "[1GiB]"), Path.of("cctk.jar"));
        assertThat(nccl).contains("-XX:MaxDirectMemorySize=64m", "-Dorg.bytedeco.javacpp.maxPhysicalBytes=0");
        assertThat(RankJvm.options(64L << 20, 8192, false, null)).contains("-Xmx512m").noneMatch(
            o -> o.startsWith("-XX:SharedArchiveFile"));
    }

    @Test
    void aMissingForeignOrBrokenArchiveStartsTheJvmSilently() throws Exception {
        final Path garbage = dir.resolve("garbage.jsa");
        Files.write(garbage, new byte[4096]);
        final Path jar = dir.resolve("nothing.jar");
        for (final Path archive : List.of(garbage, dir.resolve("missing.jsa"))) {
            final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
            cmd.addAll(RankJvm.sharing(jar).stream().map(o -> o.startsWith("-XX:SharedArchiveFile=")
                ? "-XX:SharedArchiveFile=" + archive : o).toList());
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "cctk.cli.Main", "--version"));
            final Process p = new ProcessBuilder(cmd).start();
            final String out = new String(p.getInputStream().readAllBytes());
            final String err = new String(p.getErrorStream().readAllBytes());
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isZero();
            assertThat(err).as("stderr with %s", archive).isEmpty();
            assertThat(out).as("stdout with %s", archive).startsWith("cctk ").doesNotContain("warning", "cds");
        }
    }
}
