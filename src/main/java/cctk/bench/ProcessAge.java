package cctk.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * How long this process has run, to the clock tick. On Linux from the kernel's own clock since boot: the process's
 * start in {@code /proc/self/stat} (field 22, in clock ticks, {@code AT_CLKTCK} of {@code /proc/self/auxv}, else
 * 100) against {@code /proc/uptime}. {@link ProcessHandle.Info#startInstant()} adds that start to the boot time of
 * {@code /proc/stat}'s {@code btime}, which is in whole seconds: the age it gives is too long by the boot's fraction
 * of a second, the same for every process of one boot and another on the next (on this project's VM 0.97 s: a rank
 * "started in 1.99 s" that had run 1.03 s), so a fixed cost read from it moved by up to a second between machines.
 * Elsewhere, {@code ProcessHandle}'s figure.
 * <b>Note:</b> threadsafe (no state).
 */
final class ProcessAge {

    /** The auxiliary vector's key of the clock ticks per second ({@code AT_CLKTCK}, elf.h). */
    private static final long AT_CLKTCK = 17;
    /** What Linux reports times in /proc in, where the auxiliary vector cannot be read (USER_HZ). */
    private static final long USER_HZ = 100;
    /** Field 22 of /proc/PID/stat, counted from the first field after the command's closing parenthesis (3). */
    private static final int START_FIELD = 22 - 3;

    private ProcessAge() {
    }

    /** How long this process has run (from /proc where it can be read, else ProcessHandle; zero when unknown). */
    static Duration now() {
        try {
            return fromProc(Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII),
                Files.readString(Path.of("/proc/uptime"), StandardCharsets.US_ASCII), clockTicks());
        } catch (IOException | RuntimeException e) {
            return ProcessHandle.current().info().startInstant().map(s -> Duration.between(s, Instant.now()))
                .orElse(Duration.ZERO);
        }
    }

    /**
     * The age from the text of /proc/PID/stat, of /proc/uptime and the ticks a second; throws
     * NumberFormatException or IndexOutOfBoundsException on text of another form.
     */
    static Duration fromProc(final String stat, final String uptime, final long ticks) {
        // the command (field 2) is in parentheses and may hold spaces and parentheses itself: count from the last ')'
        final String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        final long startTicks = Long.parseLong(f[START_FIELD]);
        final double up = Double.parseDouble(uptime.trim().split("\\s+")[0]);
        final double age = up - (double) startTicks / ticks;
        return Duration.ofNanos(Math.max(0, Math.round(age * 1e9)));
    }

    /** The clock ticks a second of /proc's times: AT_CLKTCK of this process's auxiliary vector, else 100. */
    private static long clockTicks() {
        try {
            final ByteBuffer aux = ByteBuffer.wrap(Files.readAllBytes(Path.of("/proc/self/auxv")))
                .order(ByteOrder.nativeOrder());
            return clockTicks(aux);
        } catch (IOException | RuntimeException e) {
            return USER_HZ;
        }
    }

    /** AT_CLKTCK of an auxiliary vector of 64-bit key-value pairs ending at key 0, else 100. */
    static long clockTicks(final ByteBuffer aux) {
        while (aux.remaining() >= 2 * Long.BYTES) {
            final long key = aux.getLong();
            final long value = aux.getLong();
            if (key == 0) {
                break;
            }
            if (key == AT_CLKTCK && value > 0) {
                return value;
            }
        }
        return USER_HZ;
    }
}
