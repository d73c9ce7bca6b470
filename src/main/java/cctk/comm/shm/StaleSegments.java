package cctk.comm.shm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;

/**
 * Removes the segments a killed job left behind: files named {@value SegmentNames#PREFIX}..., plain files (never a
 * link) owned by this user, whose header names a creator process that no longer runs (its pid gone, or now another
 * process: the start time from /proc differs). A file without a complete header is removed only once it is a minute
 * old (its creator may still be writing it). Files of running jobs are never touched.
 * <b>Note:</b> threadsafe (stateless).
 */
final class StaleSegments {

    private static final Duration UNFINISHED = Duration.ofMinutes(1);

    private StaleSegments() {
    }

    /** Removes the stale segments in {@code dir}; returns how many. Errors are skipped: this is a sweep. */
    static int clean(final Path dir) {
        final Object uid = ownUid();
        if (uid == null) {
            return 0; // cannot tell whose files are whose: touch nothing
        }
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, SegmentNames.PREFIX + "*")) {
            for (final Path f : files) {
                if (stale(f, uid)) {
                    removed += Files.deleteIfExists(f) ? 1 : 0;
                }
            }
        } catch (final IOException | RuntimeException e) {
            return removed;
        }
        return removed;
    }

    private static Object ownUid() {
        try {
            return Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (final IOException | RuntimeException e) {
            return null;
        }
    }

    static boolean stale(final Path f, final Object uid) {
        try {
            if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)
                    || !uid.equals(Files.getAttribute(f, "unix:uid", LinkOption.NOFOLLOW_LINKS))) {
                return false;
            }
            final ByteBuffer head = ByteBuffer.allocate(SegmentHeader.MAC_OFFSET + SegmentHeader.MAC_LENGTH);
            try (FileChannel c = FileChannel.open(f, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
                while (head.hasRemaining() && c.read(head) > 0) {
                    continue;
                }
            }
            final SegmentHeader h = new SegmentHeader().wrap(head);
            if (head.hasRemaining() || !h.valid()) {
                final FileTime modified = Files.getLastModifiedTime(f, LinkOption.NOFOLLOW_LINKS);
                return modified.toInstant().isBefore(Instant.now().minus(UNFINISHED));
            }
            return !running(h.pid(), h.startTime());
        } catch (final IOException | RuntimeException e) {
            return false;
        }
    }

    /** Whether process {@code pid}, started at {@code startTime} (-1: unknown), still runs. */
    static boolean running(final long pid, final long startTime) {
        final long now = ProcStat.startTime(pid);
        if (startTime >= 0 && now >= 0) {
            return now == startTime;
        }
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
