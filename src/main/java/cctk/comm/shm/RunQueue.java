package cctk.comm.shm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Whether this machine has more runnable threads than cores right now: the running count of {@code /proc/loadavg}
 * (its fourth field, {@code R/T}) against the cores this process may use. A waiting rank spins only while nobody
 * waits for a core: when every runnable thread has one, spinning costs nobody anything, and a long wait is a busy or
 * parked peer, not a peer that lost its core. The file stays open and is re-read at offset 0, at most every
 * {@value #REFRESH_NANOS} ns, so asking allocates nothing and costs a few microseconds at most.
 * <b>Note:</b> not threadsafe; one per waiting thread.
 */
final class RunQueue {

    /** How long an answer holds. */
    static final long REFRESH_NANOS = 2_000_000L;
    private static final Path LOADAVG = Path.of("/proc/loadavg");

    private final FileChannel file;
    private final ByteBuffer buffer = ByteBuffer.allocate(128);
    private final int cores;
    private long readAt;
    private boolean contended;

    private RunQueue(final FileChannel file, final int cores) {
        this.file = file;
        this.cores = cores;
    }

    /** The machine's run queue; where {@code /proc/loadavg} cannot be read, every answer is "contended". */
    static RunQueue open() {
        FileChannel f = null;
        try {
            f = FileChannel.open(LOADAVG, StandardOpenOption.READ);
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            // no /proc: contended() says yes, and the waits adapt as if every long wait lost a core
        }
        return new RunQueue(f, Runtime.getRuntime().availableProcessors());
    }

    /** True when more threads are runnable than this process has cores (or when that cannot be read). */
    boolean contended() {
        final long now = System.nanoTime();
        if (readAt != 0 && now - readAt < REFRESH_NANOS) {
            return contended;
        }
        readAt = now;
        final int running = running();
        contended = running < 0 || running > cores;
        return contended;
    }

    /** The running count of /proc/loadavg, or -1 when it cannot be read. */
    int running() {
        if (file == null) {
            return -1;
        }
        buffer.clear();
        try {
            file.read(buffer, 0);
        } catch (IOException e) {
            return -1;
        }
        return parse(buffer, buffer.position());
    }

    /** The number before the '/' of the fourth field of loadavg's text in {@code b}'s first {@code n} bytes, or -1. */
    static int parse(final ByteBuffer b, final int n) {
        int field = 0;
        int value = -1;
        for (int i = 0; i < n; i++) {
            final byte c = b.get(i);
            if (c == ' ') {
                field++;
            } else if (field == 3) {
                if (c == '/') {
                    return value;
                }
                if (c < '0' || c > '9') {
                    return -1;
                }
                value = (value < 0 ? 0 : value * 10) + (c - '0');
            }
        }
        return -1;
    }

    /** Closes the file. */
    void close() {
        if (file != null) {
            try {
                file.close();
            } catch (IOException e) {
                // a read-only file of /proc: nothing was written
            }
        }
    }
}
