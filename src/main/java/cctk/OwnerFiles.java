package cctk;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files and directories created owner-only (files 0600, directories 0700): result files, reports, job scripts
 * and manifests alike, on login and compute nodes that other users share. Files are never written through a
 * symbolic link: a link planted where a file of cctk goes is an error, not a way to overwrite what it points to.
 * Existing directories keep their mode. <b>Note:</b> stateless.
 */
public final class OwnerFiles {

    private static final Set<OpenOption> WRITE = Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS);

    private OwnerFiles() {
    }

    /** {@code dir} and its missing parents, new ones 0700 (an existing directory, or a link to one, is kept). */
    public static Path directory(final Path dir) throws IOException {
        return Files.createDirectories(dir, attribute("rwx------"));
    }

    /** The directory {@code name} inside {@code parent}, 0700 when new; a symbolic link there is refused. */
    public static Path subdirectory(final Path parent, final String name) throws IOException {
        final Path d = parent.resolve(name);
        if (Files.isSymbolicLink(d)) {
            throw new FileSystemException(d.toString(), null, "a symbolic link where the report's own directory goes");
        }
        return Files.createDirectories(d, attribute("rwx------"));
    }

    /** A text file for writing in UTF-8, created 0600 when new. */
    public static BufferedWriter text(final Path file) throws IOException {
        return new BufferedWriter(new OutputStreamWriter(stream(file), StandardCharsets.UTF_8), 1 << 16);
    }

    /** {@code bytes} as the whole of {@code file}, created 0600 when new. */
    public static Path bytes(final Path file, final byte[] bytes) throws IOException {
        try (OutputStream o = stream(file)) {
            o.write(bytes);
        }
        return file;
    }

    /** {@code text} as the whole of {@code file} in UTF-8, created 0600 when new. */
    public static Path string(final Path file, final String text) throws IOException {
        return bytes(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code text} as a new file in UTF-8, 0600; a file (or link) already there is an error, never replaced. */
    public static Path newString(final Path file, final String text) throws IOException {
        try (OutputStream o = Channels.newOutputStream(Files.newByteChannel(file, Set.of(StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), attribute("rw-------")))) {
            o.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return file;
    }

    /**
     * {@code file} for writing at any position, created 0600 when new, emptied when it exists: for a file rewritten
     * in place, a part at a time.
     */
    public static SeekableByteChannel channel(final Path file) throws IOException {
        return Files.newByteChannel(file, WRITE, attribute("rw-------"));
    }

    private static OutputStream stream(final Path file) throws IOException {
        return Channels.newOutputStream(channel(file));
    }

    private static FileAttribute<?> attribute(final String perms) {
        return PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(perms));
    }
}
