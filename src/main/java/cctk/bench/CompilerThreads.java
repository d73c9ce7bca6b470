package cctk.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Whether, and how much, this JVM's JIT compilers work, read where Linux shows each thread:
 * {@code /proc/self/task/TID}. HotSpot names its compiler threads "C1 CompilerThreadN" and "C2 CompilerThreadN"
 * (the first 15 characters in {@code comm}); one with nothing queued sleeps (state S in {@code stat}), one with
 * methods queued runs or waits for a core (R), and the first field of {@code schedstat} is its time on a core in ns.
 * Why it matters: ranks that wait by spinning hold every core, so a compile queued during the warm-up gets a core
 * only by preempting a rank, later, in the middle of a timed iteration, and the rank's peers wait out the compile
 * (W=2 on 2 vCPUs, 1 MiB all_reduce: typical iteration 63 µs, a dozen iterations of 1-8 ms in the first 70 ms of
 * timing, each next to a compile in the JIT's log). A rank that waits here sleeps, so the compilers get the cores.
 * The threads are found once, when this opens (ranks start with a fixed set: {@code RankJvm}); their files stay
 * open and are read again at offset 0, into one buffer, so that watching costs microseconds and allocates nothing
 * and brings little code of its own for the JIT to compile. Where there is no /proc (or no compiler thread: -Xint,
 * another VM) nothing is found, every wait returns at once, and the time reads 0.
 * <b>Note:</b> not threadsafe.
 */
final class CompilerThreads implements AutoCloseable {

    private static final Path TASKS = Path.of("/proc/self/task");
    private static final long POLL_NANOS = 250_000L;

    private final FileChannel[] stats;
    private final FileChannel[] schedstats;
    private final ByteBuffer buf = ByteBuffer.allocate(1024);

    private CompilerThreads(final FileChannel[] stats, final FileChannel[] schedstats) {
        this.stats = stats;
        this.schedstats = schedstats;
    }

    /** Opens the files of this JVM's compiler threads; none where they cannot be found or read. */
    static CompilerThreads open() {
        final List<FileChannel> stat = new ArrayList<>();
        final List<FileChannel> sched = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (final Path task : tasks) {
                if (isCompiler(Files.readString(task.resolve("comm")))) {
                    stat.add(FileChannel.open(task.resolve("stat"), StandardOpenOption.READ));
                    sched.add(FileChannel.open(task.resolve("schedstat"), StandardOpenOption.READ));
                }
            }
        } catch (IOException | UncheckedIOException | SecurityException e) {
            closeAll(stat);
            closeAll(sched);
            return new CompilerThreads(new FileChannel[0], new FileChannel[0]);
        }
        return new CompilerThreads(stat.toArray(new FileChannel[0]), sched.toArray(new FileChannel[0]));
    }

    /** Whether any compiler thread was found. */
    boolean visible() {
        return stats.length > 0;
    }

    /**
     * Sleeps while a compiler thread is busy, for at most {@code maxNanos}; returns the nanoseconds it waited (0: the
     * compilers were idle at once). Idle means two looks in a row, {@value #POLL_NANOS} ns apart, found every
     * compiler thread asleep.
     */
    long awaitIdle(final long maxNanos) {
        if (!busy()) {
            return 0;
        }
        final long start = System.nanoTime();
        int idle = 0;
        while (idle < 2 && System.nanoTime() - start < maxNanos) {
            LockSupport.parkNanos(POLL_NANOS);
            idle = busy() ? 0 : idle + 1;
        }
        return Math.max(1, System.nanoTime() - start);
    }

    /** Whether a compiler thread runs or waits for a core now. */
    boolean busy() {
        for (final FileChannel stat : stats) {
            if (read(stat) && state(buf) == 'R') {
                return true;
            }
        }
        return false;
    }

    /** Nanoseconds the compiler threads have run on a core so far; 0 where that cannot be read. */
    long cpuNanos() {
        long sum = 0;
        for (final FileChannel sched : schedstats) {
            if (read(sched)) {
                sum += firstNumber(buf);
            }
        }
        return sum;
    }

    @Override
    public void close() {
        closeAll(List.of(stats));
        closeAll(List.of(schedstats));
    }

    static boolean isCompiler(final String comm) {
        return comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre");
    }

    /** The state letter of a {@code stat} line: the first field after the command name's closing parenthesis. */
    static char state(final ByteBuffer line) {
        int close = -1;
        for (int i = line.limit() - 1; i >= 0; i--) {
            if (line.get(i) == ')') {
                close = i;
                break;
            }
        }
        return close < 0 || close + 2 >= line.limit() ? '?' : (char) line.get(close + 2);
    }

    /** The leading decimal number of {@code line} (0 where there is none). */
    static long firstNumber(final ByteBuffer line) {
        long n = 0;
        for (int i = 0; i < line.limit(); i++) {
            final byte b = line.get(i);
            if (b < '0' || b > '9') {
                break;
            }
            n = n * 10 + (b - '0');
        }
        return n;
    }

    /** Reads the whole file again into {@link #buf} (flipped); false where the thread has ended. */
    private boolean read(final FileChannel file) {
        buf.clear();
        try {
            long at = 0;
            int n;
            while (buf.hasRemaining() && (n = file.read(buf, at)) > 0) {
                at += n;
            }
        } catch (IOException e) {
            return false;
        }
        buf.flip();
        return buf.hasRemaining();
    }

    private static void closeAll(final List<FileChannel> files) {
        for (final FileChannel f : files) {
            try {
                f.close();
            } catch (IOException e) {
                // a /proc file: nothing to flush
            }
        }
    }
}
