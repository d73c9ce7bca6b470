package cctk.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import cctk.spec.JobSpec;
import cctk.spec.SpecParser;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Renders each reference spec and compares it with src/test/resources/golden/NAME.sbatch byte for byte.
 * After an intended change: {@code mvn -o -q test -Dtest=SbatchRendererGoldenTest -Dgolden.update=true},
 * then review the diff of the golden files.
 */
@Timeout(60)
class SbatchRendererGoldenTest {

    static final Path GOLDEN_DIR = Path.of("src/test/resources/golden");
    static final Path BASE = Path.of("/work/cctk");
    static final Instant WHEN = Instant.parse("2025-01-02T03:04:05Z");

    @TempDir
    Path tmp;

    static Stream<String> names() {
        return JobSpecs.GOLDEN.stream();
    }

    static RenderedJob render(final String name) {
        return new SbatchRenderer("test", s -> "frozen\n")
                .render(JobSpecs.specFor(name), Path.of("jobs", name, "20250102-030405"), BASE, WHEN);
    }

    @ParameterizedTest
    @MethodSource("names")
    void scriptMatchesGoldenFile(final String name) throws IOException {
        final String script = render(name).script();
        final Path golden = GOLDEN_DIR.resolve(name + ".sbatch");
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(GOLDEN_DIR);
            Files.writeString(golden, script, StandardCharsets.UTF_8);
        }
        assertThat(golden).as("golden file; create it with -Dgolden.update=true").exists();
        assertThat(script).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @MethodSource("names")
    void scriptPassesBashSyntaxCheck(final String name) throws Exception {
        assertThat(Bash.syntaxErrors(render(name).script(), tmp)).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("names")
    void everyPathInTheScriptIsAbsolute(final String name) {
        final RenderedJob job = render(name);
        assertThat(job.frozenSpec().cluster().jar()).startsWith("/work/cctk/");
        assertThat(job.frozenSpec().job().outputDir()).startsWith("/work/cctk/results/");
        assertThat(job.script())
                .contains("-jar " + job.frozenSpec().cluster().jar() + " rank --spec "
                        + "/work/cctk/jobs/" + name + "/20250102-030405/spec.yaml")
                .contains("#SBATCH --output=/work/cctk/jobs/" + name + "/20250102-030405/slurm-%j.out")
                .contains("mkdir -p -- /work/cctk/results/" + name);
    }

    static Stream<String> configs() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("configs"))) {
            return files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".yaml"))
                    .map(f -> f.substring(0, f.length() - ".yaml".length())).sorted().toList().stream();
        }
    }

    /** Every shipped config renders to its golden file (the frozen spec itself is checked in cctk.spec). */
    @ParameterizedTest
    @MethodSource("configs")
    void everyConfigMatchesItsGoldenFile(final String name) throws Exception {
        final JobSpec spec = SpecParser.parse(Path.of("configs", name + ".yaml"));
        final String script = new SbatchRenderer("test", s -> "frozen\n")
                .render(spec, Path.of("jobs", name, "20250102-030405"), BASE, WHEN).script();
        final Path golden = GOLDEN_DIR.resolve("configs").resolve(name + ".sbatch");
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(golden.getParent());
            Files.writeString(golden, script, StandardCharsets.UTF_8);
        }
        assertThat(golden).as("golden file; create it with -Dgolden.update=true").exists();
        assertThat(script).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
        assertThat(Bash.syntaxErrors(script, tmp)).isEmpty();
    }
}
