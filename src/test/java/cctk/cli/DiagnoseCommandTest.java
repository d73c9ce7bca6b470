package cctk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.spec.Diagnose;
import cctk.spec.SpecParser;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code cctk diagnose}: a dry run renders a diagnosing job from any spec; bad input is exit code 2. */
@Timeout(60)
class DiagnoseCommandTest {

    @TempDir
    Path tmp;

    private record Result(int code, String out, String err) {
    }

    private static Result cctk(final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int code = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(code, out.toString(), err.toString());
    }

    private Path spec(final String extra) throws Exception {
        final Path jar = Files.writeString(tmp.resolve("cctk.jar"), "a jar");
        return Files.writeString(tmp.resolve("s.yaml"), """
                job: {name: diag-unit, output_dir: %s}
                cluster: {java: %s, jar: %s}
                resources: {nodes: 3, tasks_per_node: 2, nics: [eth0, eth1]}
                benchmark: {tasks: [2, 6]}
                """.formatted(tmp.resolve("out"), Path.of(System.getProperty("java.home"), "bin", "java"), jar) + extra);
    }

    @Test
    void aDryRunRendersOneStepOfEveryTaskWithTheDefaultsWhenTheSpecHasNoSection() throws Exception {
        final Result r = cctk("diagnose", spec("").toString(), "--dry-run", "-o", tmp.resolve("job").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("script: " + tmp.resolve("job/job.sbatch"), "sbatch --parsable");
        assertThat(SpecParser.parse(tmp.resolve("job/spec.yaml")).diagnose()).isEqualTo(Diagnose.DEFAULT);
        final String script = Files.readString(tmp.resolve("job/job.sbatch"));
        assertThat(script).contains("srun --nodes=3 --ntasks=6 --ntasks-per-node=2").doesNotContain("--ntasks=2 ");
    }

    @Test
    void theSpecsOwnSectionIsKept() throws Exception {
        final Result r = cctk("diagnose", spec("diagnose: {threshold: 0.6, size: 64KiB}\n").toString(), "--dry-run",
                "-o", tmp.resolve("job").toString());
        assertThat(r.code()).as(r.err()).isZero();
        final Diagnose d = SpecParser.parse(tmp.resolve("job/spec.yaml")).diagnose();
        assertThat(d.threshold()).isEqualTo(0.6);
        assertThat(d.bytes()).isEqualTo(64 << 10);
    }

    @Test
    void badInputIsExitCodeTwoInOneParagraph() throws Exception {
        final Result missing = cctk("diagnose", tmp.resolve("nope.yaml").toString(), "--dry-run");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("nope.yaml").doesNotContain("at cctk.");
        final Result bad = cctk("diagnose", spec("diagnose: {threshold: 2}\n").toString(), "--dry-run");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("diagnose.threshold").doesNotContain("at cctk.");
    }
}
