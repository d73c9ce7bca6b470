package cctk.comm;

import cctk.CctkException;
import cctk.OwnerFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;

/**
 * A rendezvous through a directory that every rank of a step must see as one, such as Gloo's FileStore in the job's
 * output file system: rank 0 makes a file of a random name there and passes only the name through cctk's
 * authenticated store; every other rank waits, for a bounded time, until it sees that file under its own path of the
 * directory. A rank whose output directory is not on a file system shared with rank 0's (a node-local /tmp, a mount
 * missing on one node) gets a one-paragraph error naming its host and the directory at once, instead of waiting out
 * the backend's own rendezvous timeout. A name that is not 32 hex digits is refused: no path is taken from data.
 * <b>Note:</b> threadsafe (no state).
 */
public final class SharedDir {

    /** How long a rank waits to see rank 0's file: network file systems cache a directory's entries for seconds. */
    public static final Duration SEEN_WITHIN = Duration.ofSeconds(30);

    private static final long POLL_MS = 50;

    private SharedDir() {
    }

    /**
     * The random name rank 0 made (and its file {@code dir/prefix+name}, created owner-only), once this rank sees
     * that file in {@code dir}; waits at most {@code seenWithin}.
     *
     * @param store      the job's store, where rank 0 publishes the name under {@code key}
     * @param rank       this rank
     * @param host       this rank's host, for the error
     * @param dir        this rank's path of the directory every rank should share
     * @param prefix     the file name's prefix (the name follows it)
     * @param seenWithin how long a rank other than 0 waits to see the file
     */
    public static String meet(final Store store, final String key, final int rank, final String host, final Path dir,
                              final String prefix, final Duration seenWithin) {
        if (rank == 0) {
            final byte[] random = new byte[16];
            new SecureRandom().nextBytes(random);
            final String name = HexFormat.of().formatHex(random);
            try {
                OwnerFiles.newString(dir.resolve(prefix + name), "cctk rank 0 on " + host + "\n");
            } catch (final IOException e) {
                throw CctkException.environment("rank 0 could not write its rendezvous file in " + dir + ": "
                        + e.getMessage(), e);
            }
            store.set(key, name.getBytes(StandardCharsets.UTF_8));
            return name;
        }
        final String name = new String(store.get(key), StandardCharsets.UTF_8);
        if (!name.matches("[0-9a-f]{32}")) {
            throw CctkException.environment("rank " + rank + " got a malformed rendezvous name from the store; it"
                    + " takes 32 hex digits.");
        }
        final Path file = dir.resolve(prefix + name);
        final long end = System.nanoTime() + seenWithin.toNanos();
        while (!Files.isRegularFile(file)) {
            if (System.nanoTime() - end > 0) {
                throw CctkException.environment("rank " + rank + " on " + host + " does not see rank 0's rendezvous"
                        + " file in " + dir + " after " + seenWithin.toSeconds() + " s: this directory is not the one"
                        + " rank 0 wrote to, so the job's output directory is not on a file system every node shares"
                        + " (a node-local path, or a mount missing on this node). The backend meets its peers"
                        + " through it: give an output directory on a shared file system.");
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw CctkException.environment("rank " + rank + " was interrupted waiting for rank 0's rendezvous"
                        + " file in " + dir, e);
            }
        }
        return name;
    }
}
