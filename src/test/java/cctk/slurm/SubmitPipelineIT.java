package cctk.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The whole path through the built jar against a real Slurm: {@code cctk submit SPEC --wait}, and
 * {@code cctk render} + plain {@code sbatch --wait}. TO BE FINISHED AFTER MERGE: these need
 * configs/ci-slurm.yaml, SpecParser and cctk.render (SubmitCommand.renderScript); until those exist
 * each test is skipped by an assumption. Check the render output path below against the renderer.
 */
@Tag("slurm")
@Timeout(300)
class SubmitPipelineIT {

    private static final Path SPEC = Path.of("configs/ci-slurm.yaml");
    private static final Pattern MANIFEST = Pattern.compile("manifest (\\S+manifest\\.json)");

    /** Output of one cctk run as a separate process. */
    record Run(int code, String out) {
    }

    private static Run cctk(final String... args) throws Exception {
        final String jar = System.getProperty("cctk.jar", "target/cctk.jar");
        final List<String> argv = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar));
        argv.addAll(List.of(args));
        final Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(240, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), out);
    }

    private static void assumePipeline() {
        assumeTrue(Files.exists(SPEC), "configs/ci-slurm.yaml not in this tree yet");
        assumeTrue(ProcessRunner.fromSystem(s -> { }).which("sbatch").isPresent()
                || "true".equals(System.getenv("CI")), "no sbatch on PATH");
    }

    @Test
    void submitWaitCompletesAndRecordsTheEnd() throws Exception {
        assumePipeline();
        final Run r = cctk("submit", SPEC.toString(), "--wait");
        assumeTrue(!r.out().contains("no sbatch renderer"), "cctk.render not wired into SubmitCommand yet");
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).containsPattern("job [0-9]+ COMPLETED, exit code 0:0; results in \\S+");
        final Matcher m = MANIFEST.matcher(r.out());
        assertThat(m.find()).as(r.out()).isTrue();
        final String manifest = Files.readString(Path.of(m.group(1)));
        assertThat(manifest).contains("\"state\": \"COMPLETED\"", "\"exit_code\": \"0:0\"");
        final Matcher out = Pattern.compile("\"output_dir\": \"([^\"]+)\"").matcher(manifest);
        assertThat(out.find()).isTrue();
        try (Stream<Path> results = Files.list(Path.of(out.group(1)))) {
            assertThat(results).as("files in the job's output_dir").isNotEmpty();
        }
    }

    @Test
    void renderedScriptRunsUnderPlainSbatchWait() throws Exception {
        assumePipeline();
        final Run render = cctk("render", SPEC.toString());
        assumeTrue(render.code() == 0 && !render.out().contains("not implemented"), "cctk render not there yet");
        // TODO(lead): the path the renderer prints/writes; assumed to be the first *.sbatch token of its output
        final Matcher m = Pattern.compile("(\\S+\\.sbatch)").matcher(render.out());
        assertThat(m.find()).as(render.out()).isTrue();
        final ProcessRunner runner = ProcessRunner.fromSystem(s -> { });
        final ProcessRunner.Result r = runner.run(List.of("sbatch", "--wait", m.group(1)),
                Path.of("").toAbsolutePath(), java.time.Duration.ofSeconds(240));
        assertThat(r.exit()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stdout()).containsPattern("Submitted batch job [0-9]+");
    }
}
