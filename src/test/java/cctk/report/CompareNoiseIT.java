package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cctk compare} on real runs made by the jar ({@code java -jar target/cctk.jar run}), interleaved so that a
 * busy machine weighs on both sides alike. Three runs of one spec against three more of the same give no verdict of
 * change and exit 0, and no single pair of them calls a cell changed either (single runs are judged conservatively).
 * Runs whose ranks have far fewer resources, one core and a JVM without its JIT compiler ({@code -Xint}: about 100
 * times slower here), are a regression with its cells named, one such run alone and three against the three base
 * runs. A run with one core and the tcp backend's slow knobs (yielding instead of spinning, 4 KiB socket buffers and
 * reduce reads) is compared and printed for the record. Whether a milder slowdown (the same ranks on one core, about
 * 0.4-0.8x here) is found is a question of this machine's noise, so it is measured by bench/compare-reruns.sh and
 * not asserted here: under a loaded CI one such run read 1.74x faster than the base at 64 KiB.
 */
@Tag("slow")
@Timeout(480)
class CompareNoiseIT {

    /** The tcp backend's knobs at their slowest. */
    private static final String KNOBS = "-Dcctk.tcp.spinMicros=0 -Dcctk.tcp.yield=true"
        + " -Dcctk.tcp.streamSendBytes=4096 -Dcctk.tcp.reduceReadBytes=4096";

    @TempDir
    Path dir;

    private record Ran(int code, String out) {
    }

    /** cctk through the jar; {@code options} non-null: on one core, with these JVM options (may be empty). */
    private static Ran jar(final String options, final String... args) throws IOException, InterruptedException {
        final List<String> cmd = new ArrayList<>();
        if (options != null) {
            cmd.addAll(List.of("taskset", "-c", "0"));
        }
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
            System.getProperty("cctk.jar", "target/cctk.jar")));
        cmd.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (options != null) {
            pb.environment().put("JAVA_TOOL_OPTIONS", options);
        } else {
            pb.environment().remove("JAVA_TOOL_OPTIONS");
        }
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("cctk did not end: " + cmd);
        }
        return new Ran(p.exitValue(), out);
    }

    private void run(final String name, final String options, final String sizes)
        throws IOException, InterruptedException {
        final Path spec = Files.writeString(dir.resolve(name + ".yaml"), """
            job: {name: noise-%s, output_dir: %s}
            resources: {nodes: 1, tasks_per_node: 2}
            benchmark:
              backends: [tcp]
              collectives: [all_reduce]
              sizes: %s
              in_place: false
              warmup: 5
              iters: 20
              jit_warmup: 5s
            """.formatted(name, dir.resolve(name), sizes));
        final Ran r = jar(options, "run", spec.toString());
        assertThat(r.code()).as(r.out()).isZero();
    }

    private static void copy(final Path from, final Path to) throws IOException {
        Files.createDirectories(to);
        try (var s = Files.list(from)) {
            for (final Path f : s.toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
    }

    private Ran compare(final String base, final String next) throws IOException, InterruptedException {
        final Ran c = jar(null, "compare", dir.resolve(base).toString(), dir.resolve(next).toString(), "--all");
        System.out.println(base + " -> " + next + " (exit " + c.code() + "):\n" + c.out());
        return c;
    }

    @Test
    void repeatsOfOneSpecAreWithinNoiseAndRunsWithFarFewerResourcesAreARegression() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/taskset")), "taskset (util-linux) is needed");
        final String sizes = "[64KiB, 256KiB, 1MiB]";
        run("base1", null, sizes);
        run("same1", null, sizes);
        run("nojit1", "-Xint", "[64KiB, 256KiB]");
        run("knobs1", KNOBS, sizes);
        run("base2", null, sizes);
        run("same2", null, sizes);
        run("nojit2", "-Xint", "[64KiB, 256KiB]");
        run("base3", null, sizes);
        run("same3", null, sizes);
        run("nojit3", "-Xint", "[64KiB, 256KiB]");
        for (final String side : List.of("base", "same", "nojit")) {
            for (int i = 1; i <= 3; i++) {
                copy(dir.resolve(side + i), dir.resolve(side));
            }
        }
        for (int i = 1; i <= 3; i++) {
            // single runs: printed for the log, and said to rest on one run; their verdicts are not asserted, as one
            // cell of back-to-back runs moved 2.06x here under mvn verify (bench/compare-reruns.sh measures pairs)
            final Ran pair = compare("base" + i, "same" + i);
            assertThat(pair.out()).contains("from a single run", "conservative");
            assertThat(pair.code()).isIn(0, 1);
        }
        compare("base1", "knobs1");
        compare("base", "knobs1");
        final Ran same = compare("base", "same");
        assertThat(same.out()).contains("3 compared", "0 regressed, 0 improved", "repeats: up to 3 runs of BASE and 3");
        assertThat(same.code()).isZero();
        final Ran slow = compare("base", "nojit1");
        assertThat(slow.out()).contains("2 compared", "2 regressed, 0 improved", "3 only in BASE", "conservative");
        assertThat(slow.code()).isEqualTo(1);
        final Ran slows = compare("base", "nojit");
        assertThat(slows.out()).contains("2 compared", "2 regressed, 0 improved", "repeats: up to 3 runs of BASE and 3")
            .containsPattern("(?m)^all_reduce .* 64 KiB .* REGRESSED$")
            .containsPattern("(?m)^all_reduce .* 256 KiB .* REGRESSED$");
        assertThat(slows.code()).isEqualTo(1);
    }
}
