package cctk;

import java.io.BufferedWriter;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;

/**
 * Files and directories created owner-only (files 0600, directories 0700): result files, reports, job scripts
 * and manifests alike, on login and compute nodes that other users share. A directory is used only when no other
 * user controls it or any directory on its way ({@link Ownership#directory}). A file is always created new (as
 * {@code open} with {@code O_CREAT|O_EXCL|O_NOFOLLOW}): one that grows in place ({@link #newText},
 * {@link #newChannel}) must not exist yet; one written whole ({@link #text}, {@link #bytes}) is written to a new
 * temporary file beside it and renamed over the old one, which must be a regular file of this user's with one link
 * ({@link Ownership#replaceable}). So a file or a link that someone else planted is never written, followed or
 * reused. Existing directories keep their mode. <b>Note:</b> stateless.
 */
public final class OwnerFiles {

    /** Owner-only, for a directory made new. */
    static final FileAttribute<?> DIRECTORY = attribute("rwx------");
    private static final FileAttribute<?> FILE = attribute("rw-------");
    private static final Set<OpenOption> CREATE_NEW = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
        LinkOption.NOFOLLOW_LINKS);
    private static final SecureRandom RANDOM = new SecureRandom();

    private OwnerFiles() {
    }

    /**
     * {@code dir} and its missing parents, new ones 0700; an existing directory, or a link to one, is used only when
     * this user controls it and every directory on its way (else a CctkException(USAGE): {@link Ownership}).
     */
    public static Path directory(final Path dir) throws IOException {
        return Ownership.directory(dir);
    }

    /** The directory {@code name} inside {@code parent}, 0700 when new; a symbolic link there is refused. */
    public static Path subdirectory(final Path parent, final String name) throws IOException {
        final Path d = parent.resolve(name);
        if (Files.isSymbolicLink(d)) {
            throw new FileSystemException(d.toString(), null, "a symbolic link where the report's own directory goes");
        }
        return Ownership.directory(d);
    }

    /** A text file for writing in UTF-8, written whole: it replaces {@code file} when closed (see the class). */
    public static BufferedWriter text(final Path file) throws IOException {
        return writer(new Replacing(file));
    }

    /** A new text file for writing in UTF-8, 0600, that grows in place; it must not exist yet. */
    public static BufferedWriter newText(final Path file) throws IOException {
        return writer(Channels.newOutputStream(newChannel(file)));
    }

    /** {@code bytes} as the whole of {@code file}, replacing it (see the class). */
    public static Path bytes(final Path file, final byte[] bytes) throws IOException {
        try (OutputStream o = new Replacing(file)) {
            o.write(bytes);
        }
        return file;
    }

    /** {@code text} as the whole of {@code file} in UTF-8, replacing it (see the class). */
    public static Path string(final Path file, final String text) throws IOException {
        return bytes(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code bytes} as a new file, 0600; it must not exist yet. */
    public static Path newBytes(final Path file, final byte[] bytes) throws IOException {
        try (OutputStream o = Channels.newOutputStream(newChannel(file))) {
            o.write(bytes);
        }
        return file;
    }

    /** {@code text} as a new file in UTF-8, 0600; a file (or link) already there is an error, never replaced. */
    public static Path newString(final Path file, final String text) throws IOException {
        return newBytes(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A new file for writing at any position, 0600, for a file rewritten in place a part at a time; it must not exist
     * yet: a file of another user's there is a CctkException(USAGE), any other an IOException.
     */
    public static SeekableByteChannel newChannel(final Path file) throws IOException {
        try {
            return Files.newByteChannel(file, CREATE_NEW, FILE);
        } catch (final FileAlreadyExistsException e) {
            Ownership.replaceable(file);
            throw e;
        }
    }

    private static BufferedWriter writer(final OutputStream o) {
        return new BufferedWriter(new OutputStreamWriter(o, StandardCharsets.UTF_8), 1 << 16);
    }

    private static FileAttribute<?> attribute(final String perms) {
        return PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(perms));
    }

    /**
     * A new temporary file beside {@code file} that is renamed over it when closed, once what is there is judged
     * replaceable; when that fails, the temporary file is removed.
     */
    private static final class Replacing extends FilterOutputStream {

        private final Path file;
        private final Path temporary;
        private boolean closed;

        Replacing(final Path file) throws IOException {
            super(null);
            this.file = file;
            Ownership.replaceable(file);
            final byte[] r = new byte[6];
            RANDOM.nextBytes(r);
            final Path name = file.getFileName();
            this.temporary = file.resolveSibling("." + name + "." + HexFormat.of().formatHex(r) + ".tmp");
            this.out = Channels.newOutputStream(newChannel(temporary));
        }

        @Override
        public void write(final byte[] b, final int off, final int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            try {
                super.close();
                Ownership.replaceable(file);
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (final IOException | RuntimeException e) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (final IOException again) {
                    e.addSuppressed(again);
                }
                throw e;
            }
        }
    }
}
