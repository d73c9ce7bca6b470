package cctk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cctk run SPEC}: the ranks, real processes, run with the spec's nccl_env and env, as under sbatch, and with
 * the JVM options RankJvm gives the spec (the result JSON's args.jvm).
 */
@Timeout(120)
class RunEnvironmentTest {

    @TempDir
    Path dir;

    @Test
    void aLocalRunsRanksSeeTheSpecsNcclEnvAndEnv() throws Exception {
        final Path spec = dir.resolve("env.yaml");
        Files.writeString(spec, "job: {name: env, output_dir: " + dir.resolve("out") + "}\n"
            + "resources: {nodes: 1, tasks_per_node: 2}\n"
            + "nccl_env: {NCCL_ALGO: Ring}\n"
            + "env: {CCTK_JAVACPP_CACHE: \"/tmp/it's here\", FI_PROVIDER: tcp}\n"
            + "benchmark: {backends: [tcp], tasks: [2], collectives: [all_reduce], sizes: [4B], warmup: 1,"
            + " iters: 1, check_iters: 1, jit_warmup: 0}\n");
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int code = Main.run(new PrintWriter(out), new PrintWriter(err), "run", spec.toString());
        assertThat(code).as(out + "\n" + err).isZero();
        try (Stream<Path> files = Files.list(dir.resolve("out"))) {
            final Path json = files.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
            final String text = Files.readString(json);
            // the header lists NCCL_* and CCTK_* of the ranks: the spec's own, with the value as the spec gives it
            assertThat(text).contains("\"NCCL_ALGO\": \"Ring\"", "\"CCTK_JAVACPP_CACHE\": \"/tmp/it's here\"")
                .doesNotContain("FI_PROVIDER");
            // and they were started as RankJvm sizes them for this spec (4 B at W=2: the 64 MiB base and staging)
            assertThat(text).contains("\"-Xmx257m\"", "\"-XX:MaxDirectMemorySize=65m\"", "\"-XX:+UseSerialGC\"");
        }
    }

    @Test
    void ranksOfOneMachineTalkThroughSharedMemoryAndTheHeaderSaysSo() throws Exception {
        final Path spec = dir.resolve("shm.yaml");
        Files.writeString(spec, "job: {name: shm, output_dir: " + dir.resolve("out") + "}\n"
            + "resources: {nodes: 1, tasks_per_node: 2}\n"
            + "benchmark: {backends: [tcp, tcp-flat], tasks: [2], collectives: [all_reduce, all_gather],"
            + " sizes: [4KiB], warmup: 1, iters: 2, check_iters: 1}\n");
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int code = Main.run(new PrintWriter(out), new PrintWriter(err), "run", spec.toString());
        assertThat(code).as(out + "\n" + err).isZero();
        final Path shm = only(dir.resolve("out"), "profile_tcp_world2_");
        final Path flat = only(dir.resolve("out"), "profile_tcp-flat_world2_");
        assertThat(Files.readString(shm)).contains("\"transports\": \"shm to rank 1 (zero-copy;",
            "\"transports\": \"shm to rank 0 (zero-copy;");
        assertThat(Files.readString(flat)).containsPattern("\"transports\": \"tcp over [a-z0-9]+ to rank 1")
            .doesNotContain("shm to");
        assertThat(Files.readString(Path.of(shm.toString().replace(".json", ".txt"))))
            .containsPattern("# Rank 1 rank 1 host .* transports shm to rank 0 \\(zero-copy;");
    }

    private static Path only(final Path dir, final String prefix) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith(prefix) && p.toString().endsWith(".json"))
                .reduce((a, b) -> {
                    throw new AssertionError("two result files start with " + prefix + ": " + a + ", " + b);
                }).orElseThrow(() -> new AssertionError("no result file starts with " + prefix + " in " + dir));
        }
    }
}
