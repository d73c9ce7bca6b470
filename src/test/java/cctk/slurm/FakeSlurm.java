package cctk.slurm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

/** Stand-in Slurm client tools: small bash scripts in a directory that becomes the whole PATH. */
final class FakeSlurm {

    private FakeSlurm() {
    }

    /** Writes an executable bash script {@code dir/name} with {@code body}. */
    static Path script(final Path dir, final String name, final String body) throws IOException {
        final Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/bash\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    /** A SlurmCli whose PATH is {@code bin} plus the system directories (for bash, cat, env). */
    static SlurmCli cli(final Path bin, final List<String> log) {
        return new SlurmCli(new ProcessRunner(Map.of("PATH", bin + ":/usr/bin:/bin"), log::add));
    }
}
