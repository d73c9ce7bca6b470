package cctk.comm.shm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What {@code /proc/<pid>/stat} says about a process (proc(5)): its start time, field 22, in clock ticks after boot.
 * A pid and its start time name one process for the life of the host, so a reused pid never passes for the old one.
 * <b>Note:</b> threadsafe (stateless).
 */
final class ProcStat {

    /** Index of field 22 (starttime) among the space-separated fields that follow the ')' closing field 2. */
    private static final int START_TIME_AFTER_COMM = 19;

    private ProcStat() {
    }

    /** The start time of process {@code pid}, or -1 when it does not exist or /proc cannot tell (not Linux). */
    static long startTime(final long pid) {
        try {
            return parseStartTime(Files.readString(Path.of("/proc", Long.toString(pid), "stat"),
                    StandardCharsets.US_ASCII));
        } catch (final IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The start time of this process, or -1 where /proc cannot tell. */
    static long selfStartTime() {
        return startTime(ProcessHandle.current().pid());
    }

    /** Field 22 of a stat line; field 2 (the command) is in parentheses and may itself hold spaces and ')'. */
    static long parseStartTime(final String stat) {
        final int close = stat.lastIndexOf(')');
        if (close < 0) {
            return -1;
        }
        final String[] fields = stat.substring(close + 1).trim().split(" +");
        return fields.length > START_TIME_AFTER_COMM ? Long.parseLong(fields[START_TIME_AFTER_COMM]) : -1;
    }
}
