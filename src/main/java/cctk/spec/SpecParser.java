package cctk.spec;

import java.nio.file.Path;

/** Reads configs/*.yaml into a {@link JobSpec}. (Being written: see the spec work.) */
public final class SpecParser {

    private SpecParser() {
    }

    /**
     * Parses, resolves {@code extends:}, applies defaults and validates; throws a CctkException(USAGE)
     * listing every problem of the file with file:line:column and key path.
     */
    public static JobSpec parse(final Path file) {
        throw new UnsupportedOperationException("not written yet");
    }
}
