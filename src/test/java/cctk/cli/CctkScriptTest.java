package cctk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkout's {@code ./cctk} wrapper rebuilds the jar when it is missing or older than pom.xml or any file under
 * src/ (after a {@code git pull}), and only then. Real bash on a copy of the script, with a fake {@code mvn} that
 * records its calls and makes the jar, and {@code CCTK_JAVA=echo} standing in for java.
 */
@Timeout(60)
class CctkScriptTest {

    @TempDir
    Path root;

    private Path jar;

    @BeforeEach
    void checkout() throws IOException {
        Files.copy(Path.of("cctk"), root.resolve("cctk"), StandardCopyOption.COPY_ATTRIBUTES);
        Files.writeString(root.resolve("pom.xml"), "<project/>\n");
        Files.createDirectories(root.resolve("src/main/java"));
        Files.writeString(root.resolve("src/main/java/A.java"), "class A {}\n");
        final Path bin = Files.createDirectories(root.resolve("bin"));
        Files.writeString(bin.resolve("mvn"), "#!/bin/bash\necho \"$*\" >> \"$PWD/mvn.log\"\nmkdir -p target\n"
                + "touch target/cctk.jar\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(bin.resolve("mvn"), PosixFilePermissions.fromString("rwx------"));
        jar = root.resolve("target/cctk.jar");
    }

    private String run() throws Exception {
        final ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("cctk").toString(), "--version")
                .redirectErrorStream(true);
        pb.environment().put("PATH", root.resolve("bin") + ":/usr/bin:/bin");
        pb.environment().put("CCTK_JAVA", "echo");
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("-jar " + jar + " --version");
        return out;
    }

    private List<String> builds() throws IOException {
        final Path log = root.resolve("mvn.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    @Test
    void buildsAMissingJarThenRunsItAsItIs() throws Exception {
        assertThat(run()).contains("(it is missing)");
        assertThat(builds()).hasSize(1);
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(5)));
        run();
        assertThat(builds()).as("a jar newer than every source is not rebuilt").hasSize(1);
    }

    @Test
    void rebuildsAJarOlderThanASourceAfterAPull() throws Exception {
        Files.createDirectories(jar.getParent());
        Files.writeString(jar, "old");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(3600)));
        final String out = run();
        assertThat(out).contains("is newer");
        assertThat(out).containsAnyOf("src/main/java/A.java is newer", "pom.xml is newer", "src/main is newer");
        assertThat(builds()).hasSize(1);
    }
}
