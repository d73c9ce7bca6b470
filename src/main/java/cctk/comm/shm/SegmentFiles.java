package cctk.comm.shm;

import cctk.CctkException;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Segment files on a tmpfs: created exclusively and owner-only (O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600 from the start,
 * so a planted file or link at the name makes creation fail instead of being followed), opened without following
 * links, mapped read-write and closed at once (a mapping outlives its descriptor), unlinked as soon as nobody needs
 * to open them. The process remembers which of the files it made are still there ({@link #releaseOwn}), so that a
 * rank about to halt on a signal or a launcher's death can remove them: a killed job leaves none behind.
 * <b>Note:</b> threadsafe.
 */
final class SegmentFiles {

    /** The largest file one mapping can cover. */
    static final long MAX_FILE = Integer.MAX_VALUE;
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    private static final Set<OpenOption> CREATE = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
            StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    private static final Set<OpenOption> OPEN = Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS);
    /** The files this process made and has not unlinked yet. */
    private static final Set<Path> OWN = ConcurrentHashMap.newKeySet();
    /** The directories this process made files in. */
    private static final Set<Path> DIRS = ConcurrentHashMap.newKeySet();
    /** Guards {@link #released} and the additions to {@link #OWN} against {@link #releaseOwn}. */
    private static final Object RELEASE = new Object();
    /** Set by {@link #releaseOwn}: the process is ending and makes no more files. */
    private static boolean released;

    private SegmentFiles() {
    }

    /** Creates {@code dir/name} with {@code bytes} bytes (zero) and maps it; the file stays until {@link #unlink}. */
    static MappedByteBuffer create(final Path dir, final String name, final long bytes) {
        final Path path = dir.resolve(name);
        final FileChannel channel;
        try {
            channel = FileChannel.open(path, CREATE, OWNER_ONLY);
        } catch (final FileAlreadyExistsException e) {
            throw CctkException.environment("cannot create the shared-memory segment " + path + ": a file or link"
                    + " of that name already exists. The name derives from the job's secret, so the file was planted"
                    + " or left behind by a killed run of this job; cctk neither reuses nor follows it (a later run"
                    + " removes stale segments of dead jobs; otherwise remove it by hand).");
        } catch (final IOException | UnsupportedOperationException e) {
            throw CctkException.environment("cannot create the shared-memory segment " + path + ": " + e
                    + ". Is " + dir + " a writable tmpfs (normally /dev/shm)?");
        }
        final boolean ending;
        synchronized (RELEASE) {
            ending = released;
            if (!ending) {
                OWN.add(path);
                DIRS.add(dir);
            }
        }
        if (ending) { // releaseOwn ran: a file made now would outlive the process
            closeQuietly(channel);
            unlink(path);
            throw CctkException.environment("cannot create the shared-memory segment " + path + ": this rank is"
                    + " ending (stopped by a signal or its launcher's end) and has removed its segments.");
        }
        try (channel) {
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes);
        } catch (final IOException | RuntimeException e) {
            unlink(path);
            throw CctkException.environment("cannot map the shared-memory segment " + path + " (" + bytes
                    + " bytes): " + e + ".");
        }
    }

    /** Maps the existing plain file {@code dir/name} whole, or returns null when there is none. */
    static MappedByteBuffer open(final Path dir, final String name) {
        final Path path = dir.resolve(name);
        if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try (FileChannel channel = FileChannel.open(path, OPEN)) {
            final long size = channel.size();
            if (size < SegmentHeader.LENGTH || size > MAX_FILE) {
                return null;
            }
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
        } catch (final NoSuchFileException e) {
            return null;
        } catch (final IOException e) {
            throw CctkException.environment("cannot map the shared-memory segment " + path + ": " + e + ".");
        }
    }

    /** Removes {@code path} if it is still there; a missing file is not an error. */
    static void unlink(final Path path) {
        try {
            Files.deleteIfExists(path);
            OWN.remove(path);
        } catch (final IOException ignored) {
            // the stale-segment sweep of a later run removes what could not be removed now
        }
    }

    /**
     * For a process about to end without closing its communicators: unlinks every file it made that is still there
     * (mappings stay valid, here and in the peers that hold them) and makes no more (a thread still running until
     * the halt fails to), then sweeps the directories it used for the segments of processes that no longer run (a
     * peer killed before its files were mapped). Returns how many files went. Never throws.
     */
    static int releaseOwn() {
        final List<Path> files;
        final List<Path> dirs;
        synchronized (RELEASE) {
            released = true;
            files = List.copyOf(OWN);
            dirs = List.copyOf(DIRS);
        }
        int removed = 0;
        for (final Path p : files) {
            try {
                removed += Files.deleteIfExists(p) ? 1 : 0;
            } catch (final IOException | RuntimeException ignored) {
                // a later run's sweep
            }
            OWN.remove(p);
        }
        for (final Path d : dirs) {
            removed += StaleSegments.clean(d);
        }
        return removed;
    }

    /** TEST-ONLY: lets this process make files again after {@link #releaseOwn} (tests that go on in one JVM). */
    static void unrelease() {
        synchronized (RELEASE) {
            released = false;
        }
    }

    private static void closeQuietly(final FileChannel c) {
        try {
            c.close();
        } catch (final IOException ignored) {
            // unlinked next
        }
    }

    /** Bytes that can still be written to {@code dir}'s file system, or -1 when it cannot tell. */
    static long usable(final Path dir) {
        try {
            return Files.getFileStore(dir).getUsableSpace();
        } catch (final IOException e) {
            return -1;
        }
    }

    /** The error for a segment of {@code bytes} that does not fit in {@code dir}, which has {@code free} left. */
    static CctkException tooSmall(final String who, final Path dir, final long bytes, final long free) {
        long total = -1;
        try {
            total = Files.getFileStore(dir).getTotalSpace();
        } catch (final IOException ignored) {
            // the message goes without the total
        }
        return CctkException.environment(who + " needs " + bytes + " bytes (" + mib(bytes) + ") of shared memory in "
                + dir + " for a buffer, but only " + free + " bytes (" + mib(free) + ") are free there"
                + (total >= 0 ? " of " + total + " (" + mib(total) + ")" : "") + "; free some, enlarge " + dir
                + " (a container's --shm-size, or mount -o remount,size=...), or use smaller message sizes.");
    }

    private static String mib(final long bytes) {
        return ((bytes + (1L << 19)) >> 20) + " MiB";
    }

    /** Permissions of {@code path} as rwx text, without following a link (for tests and diagnostics). */
    static String permissions(final Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }
}
