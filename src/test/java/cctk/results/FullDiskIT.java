package cctk.results;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.AdversarialTally.Outcome;
import cctk.AdversarialTally;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A result directory on a file system that fills up mid-sweep (a 24 KiB tmpfs, mounted by this test as root):
 * {@code cctk run} ends with one paragraph naming the directory and the reason, exit 3, no stack trace, and the
 * rows that fit stay: in the {@code .part} files, or in final files that say the run is incomplete.
 */
@Tag("slow")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FullDiskIT {

    private static final AdversarialTally TALLY = new AdversarialTally("resource faults: full disk");

    @TempDir
    Path dir;

    @AfterAll
    static void report() {
        TALLY.report();
    }

    @Test
    void aFullResultFileSystemIsOneParagraphAndExitThree() throws Exception {
        if (!"root".equals(System.getProperty("user.name"))) {
            final String why = "FullDiskIT mounts a small tmpfs and needs root; run mvn -B verify as root (CI does)";
            System.out.println("!!! SKIPPED, NOT PASSED: " + why);
            Assumptions.abort("SKIPPED, NOT PASSED: " + why);
        }
        final Path mount = Files.createDirectories(dir.resolve("tiny"));
        assertThat(run(List.of("mount", "-t", "tmpfs", "-o", "size=24k", "tmpfs", mount.toString())).code)
                .as("mount a 24 KiB tmpfs").isZero();
        try {
            final Path spec = dir.resolve("full.yaml");
            Files.writeString(spec, """
                    job: {name: full, output_dir: %s}
                    resources: {nodes: 1, tasks_per_node: 2}
                    benchmark:
                      tasks: [2]
                      collectives: [all_reduce, all_gather, broadcast, alltoall]
                      sizes: {min: 1KiB, max: 1MiB, factor: 2}
                      dtypes: [float32, float64, int32]
                      warmup: 1
                      iters: 2
                      jit_warmup: 0
                    """.formatted(mount.resolve("res")), StandardCharsets.UTF_8);
            final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-cp", System.getProperty("java.class.path"), "cctk.cli.Main", "run",
                    spec.toString()));
            final Result r = run(cmd);
            final boolean trace = r.out.contains("\tat ") || r.out.contains("Exception in thread");
            TALLY.record("result files on a full file system", trace ? Outcome.STACK_TRACE
                    : r.code != 3 ? Outcome.WRONG_EXIT_CODE : Outcome.CLEAR_ERROR);
            assertThat(trace).as(r.out).isFalse();
            assertThat(r.code).as(r.out).isEqualTo(3);
            assertThat(r.out).containsPattern("cctk: (could not append to|could not finish|cannot write) the result"
                    + " files in " + mount.resolve("res") + ".*No space left on device");
            // rank 0's own disk is the cause: not a peer that "said nothing" because it was waiting on rank 0
            assertThat(r.out).doesNotContain("said nothing");
            try (var files = Files.list(mount.resolve("res"))) {
                // the part files, or final ones when the few bytes that finish appends still fit (the JSON then
                // says the run is incomplete, and why); never a temporary file
                assertThat(files.map(p -> p.getFileName().toString()).toList()).as("what fit stays")
                        .anyMatch(n -> n.endsWith(".csv.part") || n.endsWith(".csv"))
                        .noneMatch(n -> n.endsWith(".tmp"));
            }
            try (var files = Files.list(mount.resolve("res"))) {
                for (final Path f : files.filter(p -> p.toString().endsWith(".txt")).toList()) {
                    assertThat(Files.readString(f)).as("the Incomplete line of %s", f).contains("No space left")
                            .doesNotContain("said nothing");
                }
            }
        } finally {
            run(List.of("umount", "-l", mount.toString()));
        }
    }

    /**
     * {@code cctk report} into a directory on a full file system (a 16 KiB tmpfs; the combined CSV alone is larger):
     * exit 3, one paragraph naming the directory and "No space left on device", whichever file filled it.
     */
    @Test
    void aReportOnAFullFileSystemIsOneParagraphAndExitThree() throws Exception {
        if (!"root".equals(System.getProperty("user.name"))) {
            final String why = "FullDiskIT mounts a small tmpfs and needs root; run mvn -B verify as root (CI does)";
            System.out.println("!!! SKIPPED, NOT PASSED: " + why);
            Assumptions.abort("SKIPPED, NOT PASSED: " + why);
        }
        final Path spec = dir.resolve("many.yaml");
        Files.writeString(spec, """
                job: {name: many, output_dir: %s}
                resources: {nodes: 1, tasks_per_node: 2}
                benchmark:
                  tasks: [2]
                  backends: [tcp]
                  collectives: [all_reduce, all_gather, broadcast, alltoall]
                  sizes: {min: 1KiB, max: 64KiB, factor: 2}
                  dtypes: [float32, float64, int32]
                  warmup: 1
                  iters: 2
                  jit_warmup: 0
                """.formatted(dir.resolve("res")), StandardCharsets.UTF_8);
        assertThat(run(cctk("run", spec.toString())).code).as("the run that makes the inputs").isZero();
        final Path mount = Files.createDirectories(dir.resolve("tiny"));
        assertThat(run(List.of("mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", mount.toString())).code)
                .as("mount a 16 KiB tmpfs").isZero();
        try {
            final Result r = run(cctk("report", "-o", mount.resolve("rep").toString(), dir.resolve("res")
                    .toString()));
            final boolean trace = r.out.contains("\tat ") || r.out.contains("Exception in thread");
            TALLY.record("a report into a full file system", trace ? Outcome.STACK_TRACE
                    : r.code != 3 ? Outcome.WRONG_EXIT_CODE : Outcome.CLEAR_ERROR);
            assertThat(trace).as(r.out).isFalse();
            assertThat(r.code).as(r.out).isEqualTo(3);
            assertThat(r.out.strip()).as("one paragraph").doesNotContain("\n")
                    .containsPattern("cannot write the report in " + mount.resolve("rep") + ".*No space left on device");
        } finally {
            run(List.of("umount", "-l", mount.toString()));
        }
    }

    private static List<String> cctk(final String... args) {
        final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), "cctk.cli.Main"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private record Result(int code, String out) {
    }

    private static Result run(final List<String> cmd) throws Exception {
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(240, TimeUnit.SECONDS)).as("%s ends", cmd).isTrue();
        return new Result(p.exitValue(), out);
    }
}
