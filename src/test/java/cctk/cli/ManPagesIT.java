package cctk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The build made picocli's man pages (target/man/man1): one per command, in man(1)'s format, current with the CLI. */
@Tag("slow")
@Timeout(60)
class ManPagesIT {

    @Test
    void everyCommandHasACurrentManPage() throws Exception {
        final Path dir = Path.of(System.getProperty("cctk.jar", "target/cctk.jar")).toAbsolutePath().getParent()
            .resolve("man/man1");
        for (final String cmd : List.of("cctk", "cctk-run", "cctk-report", "cctk-compare", "cctk-submit",
            "cctk-render", "cctk-validate", "cctk-status", "cctk-rank", "cctk-demo", "cctk-diagnose")) {
            final Path page = dir.resolve(cmd + ".1");
            assertThat(page).as("mvn package makes %s", page).isRegularFile();
            assertThat(Files.readString(page)).as(cmd).contains(".TH \"" + cmd.toUpperCase(java.util.Locale.ROOT)
                .replace("-", "\\-") + "\" \"1\"");
        }
        assertThat(Files.readString(dir.resolve("cctk-run.1"))).contains("\\-\\-iters", "\\-\\-dtypes",
            "float32, float64");
    }
}
