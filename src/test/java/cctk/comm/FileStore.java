package cctk.comm;

import cctk.CctkException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

/** A Store for ranks that are processes of one host: one file per key in a shared directory, polled. */
public final class FileStore implements Store {
    private final Path dir;
    private final int rank;
    private final long timeoutNanos;

    public FileStore(final Path dir, final int rank, final Duration timeout) {
        this.dir = dir;
        this.rank = rank;
        this.timeoutNanos = timeout.toNanos();
    }

    @Override
    public void set(final String key, final byte[] value) {
        try {
            final Path tmp = dir.resolve(name(key) + ".tmp" + rank);
            Files.write(tmp, value);
            Files.move(tmp, dir.resolve(name(key)), StandardCopyOption.ATOMIC_MOVE);
        } catch (final IOException e) {
            throw CctkException.environment("file store: cannot write " + key + ": " + e.getMessage(), e);
        }
    }

    @Override
    public byte[] get(final String key) {
        final long end = System.nanoTime() + timeoutNanos;
        final Path p = dir.resolve(name(key));
        while (true) {
            try {
                if (Files.exists(p)) {
                    return Files.readAllBytes(p);
                }
                if (System.nanoTime() > end) {
                    throw CctkException.environment("file store: timed out waiting for key " + key);
                }
                Thread.sleep(5);
            } catch (final IOException e) {
                throw CctkException.environment("file store: cannot read " + key + ": " + e.getMessage(), e);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw CctkException.environment("file store: interrupted");
            }
        }
    }

    @Override
    public void barrier(final String name) {
        throw new UnsupportedOperationException("not needed by the tcp tests");
    }

    private static String name(final String key) {
        return key.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    @Override
    public void close() {
        // files stay for the caller to delete
    }
}
