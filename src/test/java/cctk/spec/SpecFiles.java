package cctk.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import cctk.CctkException;
import cctk.ExitCode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes specs into a test's temporary directory and collects what the parser says about them. */
final class SpecFiles {

    private SpecFiles() {
    }

    static Path write(final Path dir, final String name, final String yaml) {
        return write(dir, name, yaml.getBytes(StandardCharsets.UTF_8));
    }

    static Path write(final Path dir, final String name, final byte[] bytes) {
        try {
            final Path p = dir.resolve(name);
            Files.createDirectories(p.getParent());
            Files.write(p, bytes);
            return p;
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The message of the usage error the file must cause; fails the test if it parses. */
    static String problemsOf(final Path file) {
        final CctkException e = catchThrowableOfType(CctkException.class, () -> SpecParser.parse(file));
        assertThat(e).as("expected %s to be rejected", file).isNotNull();
        assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(e.getMessage()).doesNotContain("at cctk.").doesNotContain("Exception");
        return e.getMessage();
    }
}
