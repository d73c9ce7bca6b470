package cctk.comm.shm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * TEST-ONLY view of the shm backend's files for the ITs of other packages (Slurm jobs, launchers): which files of
 * cctk's naming lie in a directory and which process made each (the creator pid in its header), and a way to leave
 * behind what a killed rank leaves: a segment whose header names a process that no longer runs.
 * <b>Note:</b> threadsafe (stateless).
 */
public final class SegmentsOnDisk {

    /** What every segment's name starts with. */
    public static final String PREFIX = SegmentNames.PREFIX;
    /** Where the CPU backend makes its segments. */
    public static final Path DEFAULT = ShmOptions.DEFAULT_DIRECTORY;

    private SegmentsOnDisk() {
    }

    /**
     * One file of cctk's naming.
     *
     * @param pid the creator pid its header names, -1 when the header is incomplete or not cctk's
     */
    public record Segment(Path path, long pid) {
    }

    /** The files named {@link #PREFIX}... in {@code dir} (none when it does not exist), with their creators. */
    public static List<Segment> in(final Path dir) throws IOException {
        final List<Segment> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, PREFIX + "*")) {
            for (final Path f : files) {
                out.add(new Segment(f, creator(f)));
            }
        }
        return out;
    }

    /** The start time /proc gives process {@code pid} (what a header records), -1 when it does not run. */
    public static long startTime(final long pid) {
        return ProcStat.startTime(pid);
    }

    private static long creator(final Path f) {
        final ByteBuffer head = ByteBuffer.allocate(SegmentHeader.MAC_OFFSET + SegmentHeader.MAC_LENGTH);
        try (FileChannel c = FileChannel.open(f, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            while (head.hasRemaining() && c.read(head) > 0) {
                continue;
            }
        } catch (final IOException e) {
            return -1; // unlinked meanwhile, or not a plain file
        }
        final SegmentHeader h = new SegmentHeader().wrap(head);
        return head.hasRemaining() || !h.valid() ? -1 : h.pid();
    }

    /**
     * Writes a data segment of cctk's naming into {@code dir} whose header says process {@code pid}, started at
     * {@code startTime} ({@link #startTime}), made it, as a rank killed before its peers mapped the buffer leaves it
     * (the stale sweep goes by the creator alone, not by the seal); returns its path.
     */
    public static Path leave(final Path dir, final long pid, final long startTime) throws IOException {
        final byte[] random = new byte[20];
        ThreadLocalRandom.current().nextBytes(random);
        final Path f = dir.resolve(PREFIX + HexFormat.of().formatHex(random));
        final ByteBuffer page = ByteBuffer.allocate(SegmentHeader.LENGTH + 4096);
        new SegmentHeader().wrap(page).fill(SegmentHeader.KIND_DATA, pid, startTime, 0, 2, 0, 1,
                4096);
        Files.createFile(f, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (FileChannel c = FileChannel.open(f, StandardOpenOption.WRITE)) {
            while (page.hasRemaining()) {
                c.write(page);
            }
        }
        return f;
    }
}
