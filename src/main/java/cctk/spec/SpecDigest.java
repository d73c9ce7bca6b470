package cctk.spec;

import cctk.CctkException;
import cctk.IoErrors;
import cctk.Printable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The SHA-256 of a spec's bytes, which the local launcher hands its ranks ({@code CCTK_SPEC_SHA256}) so that a rank
 * runs exactly the spec the launcher wrote or read, not one somebody put in its place meanwhile.
 * <b>Note:</b> threadsafe (no state).
 */
public final class SpecDigest {

    private SpecDigest() {
    }

    /** The SHA-256 of {@code bytes}, in lower-case hex. */
    public static String of(final byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** The SHA-256 of {@code file}'s bytes as they are now; a file that cannot be read is a CctkException(USAGE). */
    public static String of(final Path file) {
        try {
            return of(Files.readAllBytes(file));
        } catch (final IOException e) {
            throw CctkException.usage("cannot read spec " + Printable.of(file.toString()) + ": " + IoErrors.reason(e)
                + ".");
        }
    }

    /** Throws CctkException(ENVIRONMENT) naming {@code file} when {@code bytes} are not those of {@code sha256}. */
    static void check(final Path file, final byte[] bytes, final String sha256) {
        final String found = of(bytes);
        if (!found.equals(sha256.trim().toLowerCase(Locale.ROOT))) {
            throw CctkException.environment("the spec " + Printable.of(file.toString()) + " is not the one 'cctk run'"
                + " started this rank with: its SHA-256 is " + found + ", not " + Printable.of(sha256) + ". Someone"
                + " or something changed or replaced the file after the launcher wrote it; this rank runs nothing"
                + " from it. Keep specs and output directories where only you can write.");
        }
    }
}
