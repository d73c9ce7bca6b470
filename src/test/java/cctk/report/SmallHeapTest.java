package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.results.Column;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A report that does not fit the JVM's heap ends in one paragraph with exit 3 (the heap is the environment's
 * limit), not with a raw OutOfMemoryError: a real {@code cctk report} process with a 40 MiB heap.
 */
@Timeout(180)
class SmallHeapTest {

    @TempDir
    Path dir;

    @Test
    void runningOutOfHeapIsAnEnvironmentError() throws IOException, InterruptedException {
        final Path csv = dir.resolve("big.csv");
        try (BufferedWriter w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
            w.write(cctk.results.Csvs.HEADER_BEFORE_REPEATS);
            w.write('\n');
            for (int i = 0; i < 400_000; i++) {
                w.write(Hostile.row("tcp", Integer.toString(2 + i % 4), "all_reduce", 1L << (10 + i % 20),
                    10 + i % 1000));
                w.write('\n');
            }
        }
        final Path err = dir.resolve("err.txt");
        final Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-Xmx40m", "-cp", System.getProperty("java.class.path"), "cctk.cli.Main", "report",
            csv.toString(), "-o", dir.resolve("out").toString()))
            .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(150, TimeUnit.SECONDS)).isTrue();
        final String text = Files.readString(err);
        assertThat(text).doesNotContain("\tat ", "Exception in thread");
        assertThat(text).startsWith("cctk: ").contains("out of memory", "-Xmx");
        assertThat(p.exitValue()).isEqualTo(3);
    }
}
