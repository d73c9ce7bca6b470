package cctk.comm.shm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Whether a peer's process still runs, asked without allocating: {@code /proc/<pid>/stat} is opened once, while the
 * peer is known alive (its start time checked), and re-read at offset 0 on every question. Procfs regenerates the
 * text on each read; once the process is gone and reaped the open file answers ESRCH, even if the pid is reused, and
 * a zombie shows state Z (proc(5)). Where /proc is missing, {@link ProcessHandle#isAlive} answers instead.
 * <b>Note:</b> not threadsafe.
 */
final class PeerProcess implements AutoCloseable {

    private final long pid;
    private final boolean self;
    private final FileChannel stat;
    private final ProcessHandle handle;
    private final ByteBuffer text;

    private PeerProcess(final long pid, final boolean self, final FileChannel stat, final ProcessHandle handle) {
        this.pid = pid;
        this.self = self;
        this.stat = stat;
        this.handle = handle;
        this.text = stat == null ? null : ByteBuffer.allocateDirect(1024);
    }

    /**
     * The process {@code pid}, which started at {@code startTime} (-1: unknown). A process that is already gone, or
     * whose pid now names another process, reads as dead from the start.
     */
    static PeerProcess of(final long pid, final long startTime) {
        if (pid == ProcessHandle.current().pid()) {
            return new PeerProcess(pid, true, null, null);
        }
        FileChannel stat = null;
        try {
            stat = FileChannel.open(Path.of("/proc", Long.toString(pid), "stat"), StandardOpenOption.READ);
            if (startTime >= 0 && ProcStat.startTime(pid) != startTime) {
                stat.close();
                return new PeerProcess(pid, false, null, null);
            }
            return new PeerProcess(pid, false, stat, null);
        } catch (final IOException e) {
            return new PeerProcess(pid, false, null, ProcessHandle.of(pid).orElse(null));
        }
    }

    long pid() {
        return pid;
    }

    /** Whether the process still runs (a stopped process does; a zombie does not). */
    boolean alive() {
        if (self) {
            return true;
        }
        if (stat == null) {
            return handle != null && handle.isAlive();
        }
        try {
            text.clear();
            final int n = stat.read(text, 0);
            int close = -1;
            for (int i = 0; i < n; i++) {
                if (text.get(i) == ')') {
                    close = i;
                }
            }
            if (close < 0 || close + 2 >= n) {
                return n > 0;
            }
            final byte state = text.get(close + 2);
            return state != 'Z' && state != 'X' && state != 'x';
        } catch (final IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        if (stat != null) {
            try {
                stat.close();
            } catch (final IOException ignored) {
                // nothing to release
            }
        }
    }
}
