package cctk;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * A run's cause file, {@code <stem>.cause} beside its result files ({@code <stem>.json}, ...): one line in which a
 * rank other than 0 that ends early says what ended the run and who, written before it ends, in case rank 0 (the
 * only writer of the result files, and the host of the rendezvous store) dies and never finishes them. Rank 0
 * removes it when it finishes the result files, which then say why themselves; {@code cctk run}, {@code cctk
 * submit --wait} and {@code cctk report} read it only while the run has no final JSON. <b>Note:</b> stateless.
 */
public final class CauseFile {

    /** The suffix of a cause file. */
    public static final String SUFFIX = ".cause";
    private static final int MOST_CHARS = 2000;

    private CauseFile() {
    }

    /** The cause file of the run whose JSON (final, or part: {@code .json.part}) is {@code json}. */
    public static Path of(final Path json) {
        final String name = json.getFileName().toString();
        return json.resolveSibling(name.replaceFirst("\\.json(\\.part)?$", "") + SUFFIX);
    }

    /**
     * Writes {@code cause} (one line) as the cause file of the run whose final JSON is {@code json}, owner-only,
     * unless the final JSON or a cause file is already there (the first rank's words stay). Returns the file, or
     * null when it was not written; a failure (a full disk) leaves no file and is not an error: the rank is ending.
     */
    public static Path write(final Path json, final String cause) {
        final Path file = of(json);
        if (Files.exists(json) || Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try {
            return OwnerFiles.newString(file, cause.replaceAll("[\\r\\n]+", " ") + "\n");
        } catch (final FileAlreadyExistsException e) {
            return null; // another rank was first
        } catch (final IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(file);
            } catch (final IOException gone) {
                // nothing more to do: the rank is ending
            }
            return null;
        }
    }

    /** The first line of the cause file beside {@code json} (at most 2,000 characters, printable), or null. */
    public static String read(final Path json) {
        final Path file = of(json);
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            final String text = new String(in.readNBytes(MOST_CHARS), StandardCharsets.UTF_8);
            final String line = text.lines().findFirst().orElse("").strip();
            return line.isEmpty() ? null : Printable.of(line);
        } catch (final IOException e) {
            return null;
        }
    }
}
