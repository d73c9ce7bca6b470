package cctk.spec;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code cctk validate} in-process: ok lines, every problem, exit 0 or 2, never a stack frame. */
@Timeout(30)
class ValidateCommandTest {

    @TempDir
    Path dir;

    record Result(int code, String out, String err) {
    }

    static Result cctk(final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int code = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void goodSpecsAreOk() {
        final Result r = cctk("validate", "configs/local.yaml", "configs/perlmutter-4gpu.yaml");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("ok configs/local.yaml").contains("ok configs/perlmutter-4gpu.yaml");
        // Unit tests run before 'package' on a fresh clone, so the jar the Perlmutter spec names may not exist yet:
        // then each spec's one warning is about it, and nothing else is said.
        if (Files.isRegularFile(Path.of("target/cctk.jar"))) {
            assertThat(r.err()).isEmpty();
        } else {
            assertThat(r.err().lines().toList()).hasSize(2).allSatisfy(line -> assertThat(line)
                .matches("cctk: warning: configs/(local|perlmutter-4gpu)\\.yaml: cluster\\.jar .*")
                .contains("target/cctk.jar does not exist"));
        }
    }

    @Test
    void aMissingJarIsAWarningNotAnError() throws Exception {
        Files.createDirectories(dir.resolve("target"));
        final Path spec = SpecFiles.write(dir, "job.yaml", "cluster: {jar: " + dir.resolve("target/cctk.jar") + "}\n"
            + "resources: {nodes: 1, tasks_per_node: 2}\n");
        final Result missing = cctk("validate", spec.toString());
        assertThat(missing.code()).isZero();
        assertThat(missing.out()).contains("ok " + spec);
        assertThat(missing.err()).contains("cluster.jar " + dir.resolve("target/cctk.jar") + " does not exist");
        Files.writeString(dir.resolve("target/cctk.jar"), "jar");
        final Result there = cctk("validate", spec.toString());
        assertThat(there.code()).isZero();
        assertThat(there.err()).isEmpty();
    }

    @Test
    void badSpecsListEveryProblemAndExit2() {
        final Path bad = SpecFiles.write(dir, "bad.yaml", "resources: {nodes: 1, tasks_per_nod: 2}\n"
                + "nccl_env: {NCCL_NET_GDR_LEVEL: PBH}\n");
        final Result r = cctk("validate", "configs/local.yaml", bad.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).contains("ok configs/local.yaml").doesNotContain("ok " + bad);
        assertThat(r.err()).contains("3 problems in " + bad).contains("did you mean 'tasks_per_node'?")
                .contains(bad + ":2:32: nccl_env.NCCL_NET_GDR_LEVEL").doesNotContain("at cctk.")
                .doesNotContain("Exception");
    }

    @Test
    void hostileAndMissingFilesExit2WithoutTraces() {
        final Path empty = SpecFiles.write(dir, "empty.yaml", "");
        final Path binary = SpecFiles.write(dir, "bin.yaml", new byte[] {1, 0, 2, 0});
        final Result r = cctk("validate", empty.toString(), binary.toString(), dir.resolve("nope.yaml").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("empty").contains("binary").contains("no such file")
                .doesNotContain("at cctk.").doesNotContain("Exception");
    }

    @Test
    void noArgumentsIsAUsageError() {
        final Result r = cctk("validate");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("SPEC");
    }
}
