package cctk.spec;

/** Writes a resolved {@link JobSpec} back as YAML that {@link SpecParser} reads to an equal spec. */
public final class SpecWriter {

    private SpecWriter() {
    }

    /** The frozen, fully resolved spec (no {@code extends:}) as YAML text. */
    public static String toYaml(final JobSpec spec) {
        throw new UnsupportedOperationException("not written yet");
    }
}
