package cctk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar as users run it (only the parts of Gson and FastCSV that cctk uses are kept): a run writes its files,
 * and report and compare read them back, all through {@code java -jar target/cctk.jar}.
 */
@Tag("slow")
@Timeout(180)
class FatJarIT {

    @TempDir
    Path dir;

    private record Ran(int code, String out) {
    }

    private static Ran jar(final String... args) throws IOException, InterruptedException {
        final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-jar", System.getProperty("cctk.jar", "target/cctk.jar")));
        cmd.addAll(List.of(args));
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("cctk did not end: " + cmd);
        }
        return new Ran(p.exitValue(), out);
    }

    @Test
    void aRunsFilesAreReportedAndComparedByTheJarItself() throws Exception {
        final Path results = dir.resolve("results");
        final Path spec = Files.writeString(dir.resolve("s.yaml"), """
            job: {name: jar-it, output_dir: %s}
            resources: {nodes: 1, tasks_per_node: 2}
            benchmark:
              backends: [tcp]
              collectives: [all_reduce, all_gather]
              sizes: [4KiB, 64KiB]
              warmup: 1
              iters: 3
              jit_warmup: 0
              references: []
            """.formatted(results).replace("  references: []\n", ""));
        final Ran run = jar("run", spec.toString());
        assertThat(run.code()).as(run.out()).isZero();
        final Path json;
        try (Stream<Path> s = Files.list(results)) {
            json = s.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
        }
        final Ran report = jar("report", results.toString(), "-o", dir.resolve("rep").toString());
        assertThat(report.code()).as(report.out()).isZero();
        assertThat(dir.resolve("rep/report.html")).exists();
        assertThat(Files.readString(dir.resolve("rep/combined.csv"))).contains("all_gather");
        final Ran compare = jar("compare", json.toString(), results.toString());
        assertThat(compare.code()).as(compare.out()).isZero();
        assertThat(compare.out()).contains("compared", "0 regressed");
    }
}
