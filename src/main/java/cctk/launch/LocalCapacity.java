package cctk.launch;

import cctk.CctkException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How many rank processes this machine can hold, so that {@code cctk run --nproc 5000} on a login node is refused
 * in one paragraph instead of starting 5000 JVMs. Three bounds, the smallest wins: memory (what the kernel and
 * the memory cgroup, v1 or v2, leave available, over a per-rank estimate), processes (the user's RLIMIT_NPROC and
 * the pids cgroup, both counted in threads, over the threads a JVM rank starts), and cores
 * ({@value #RANKS_PER_CORE} ranks per core: more measures the scheduler, not the network).
 * An explicit override ({@code --oversubscribe}) skips the check. <b>Note:</b> immutable.
 *
 * @param cores      processors the JVM may use
 * @param memory     bytes available to new processes, or -1 when unknown
 * @param memoryFrom where that figure comes from, for the error
 * @param threads    threads (processes) this user may still start, or -1 when unknown
 * @param threadsFrom where that figure comes from
 */
public record LocalCapacity(int cores, long memory, String memoryFrom, long threads, String threadsFrom) {

    /** A JVM rank's own footprint before its buffers: heap, metaspace, code cache, thread stacks (measured RSS). */
    public static final long RANK_BASE_BYTES = 160L << 20;
    /** Threads a rank's JVM starts (GC, compiler, store, progress): about 25 on 2 cores; margin kept. */
    public static final int THREADS_PER_RANK = 40;
    /** Ranks per core before the run measures the scheduler rather than the collectives. */
    public static final int RANKS_PER_CORE = 32;
    /** The flag that skips the check. */
    public static final String OVERRIDE = "--oversubscribe";

    /** Reads this machine's limits (/proc and the cgroup file systems). */
    public static LocalCapacity probe() {
        long memory = meminfo("MemAvailable");
        String memoryFrom = "MemAvailable in /proc/meminfo";
        final long cgroup = cgroupMemoryLeft();
        if (cgroup >= 0 && (memory < 0 || cgroup < memory)) {
            memory = cgroup;
            memoryFrom = "the memory cgroup's limit";
        }
        long threads = -1;
        String threadsFrom = "unknown";
        final long nproc = processLimit();
        if (nproc >= 0) {
            threads = Math.max(0, nproc - threadsRunning());
            threadsFrom = "RLIMIT_NPROC (ulimit -u " + nproc + ") less the threads running now";
        }
        final long pids = cgroupPidsLeft();
        if (pids >= 0 && (threads < 0 || pids < threads)) {
            threads = pids;
            threadsFrom = "the pids cgroup's limit";
        }
        return new LocalCapacity(Runtime.getRuntime().availableProcessors(), memory, memoryFrom, threads, threadsFrom);
    }

    /** The most ranks that fit when each needs {@code perRankBytes} of memory. */
    public int maxRanks(final long perRankBytes) {
        long max = (long) RANKS_PER_CORE * cores;
        if (memory >= 0) {
            max = Math.min(max, memory / Math.max(1, perRankBytes));
        }
        if (threads >= 0) {
            max = Math.min(max, threads / THREADS_PER_RANK);
        }
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, max));
    }

    /**
     * Refuses (usage error, exit 2) {@code ranks} processes of {@code perRankBytes} each unless they fit or
     * {@code override} is set; {@code what} names the flag or key that asked for them.
     */
    public void check(final int ranks, final long perRankBytes, final boolean override, final String what) {
        final int max = maxRanks(perRankBytes);
        if (override || ranks <= max) {
            return;
        }
        final StringBuilder why = new StringBuilder();
        if (ranks > (long) RANKS_PER_CORE * cores) {
            why.append(cores).append(" core(s) at most ").append(RANKS_PER_CORE).append(" ranks each");
        }
        if (memory >= 0 && (long) ranks * perRankBytes > memory) {
            why.append(why.length() == 0 ? "" : "; ").append("about ").append(mib((long) ranks * perRankBytes))
                    .append(" of memory (").append(mib(perRankBytes)).append(" per rank) but ").append(mib(memory))
                    .append(" available (").append(memoryFrom).append(')');
        }
        if (threads >= 0 && (long) ranks * THREADS_PER_RANK > threads) {
            why.append(why.length() == 0 ? "" : "; ").append("about ").append((long) ranks * THREADS_PER_RANK)
                    .append(" threads but ").append(threads).append(" may be started (").append(threadsFrom)
                    .append(')');
        }
        throw CctkException.usage(what + " asks for " + ranks + " rank processes on this machine, but at most " + max
                + " fit: " + why + ". Ask for fewer, or pass " + OVERRIDE + " to start them anyway (each rank is a"
                + " JVM).");
    }

    private static String mib(final long bytes) {
        return bytes >= (10L << 30) ? (bytes >> 30) + " GiB" : (bytes >> 20) + " MiB";
    }

    private static long meminfo(final String key) {
        for (final String line : lines(Path.of("/proc/meminfo"))) {
            if (line.startsWith(key + ":")) {
                final String[] f = line.substring(key.length() + 1).trim().split("\\s+");
                return number(f[0]) * 1024;
            }
        }
        return -1;
    }

    private static long cgroupMemoryLeft() {
        final long v2 = limitLeft(Path.of("/sys/fs/cgroup/memory.max"), Path.of("/sys/fs/cgroup/memory.current"));
        return v2 >= 0 ? v2 : limitLeft(Path.of("/sys/fs/cgroup/memory/memory.limit_in_bytes"),
                Path.of("/sys/fs/cgroup/memory/memory.usage_in_bytes"));
    }

    private static long cgroupPidsLeft() {
        final long v2 = limitLeft(Path.of("/sys/fs/cgroup/pids.max"), Path.of("/sys/fs/cgroup/pids.current"));
        return v2 >= 0 ? v2 : limitLeft(Path.of("/sys/fs/cgroup/pids/pids.max"),
                Path.of("/sys/fs/cgroup/pids/pids.current"));
    }

    /** limit − used, or -1 when there is no such file or no limit ("max", or v1's huge number). */
    private static long limitLeft(final Path limit, final Path used) {
        final List<String> l = lines(limit);
        if (l.isEmpty()) {
            return -1;
        }
        final long max = number(l.get(0).trim());
        if (max < 0 || max >= (1L << 60)) {
            return -1;
        }
        final List<String> u = lines(used);
        return Math.max(0, max - (u.isEmpty() ? 0 : Math.max(0, number(u.get(0).trim()))));
    }

    /** The soft "Max processes" of /proc/self/limits, or -1 when unlimited or unknown. */
    private static long processLimit() {
        for (final String line : lines(Path.of("/proc/self/limits"))) {
            if (line.startsWith("Max processes")) {
                final String[] f = line.substring("Max processes".length()).trim().split("\\s+");
                return number(f[0]);
            }
        }
        return -1;
    }

    /** Threads on the machine now (the fourth field of /proc/loadavg, "running/total"): a user's are fewer. */
    private static long threadsRunning() {
        final List<String> l = lines(Path.of("/proc/loadavg"));
        if (l.isEmpty()) {
            return 0;
        }
        final String[] f = l.get(0).trim().split("\\s+");
        final int slash = f.length > 3 ? f[3].indexOf('/') : -1;
        return slash < 0 ? 0 : Math.max(0, number(f[3].substring(slash + 1)));
    }

    private static long number(final String s) {
        try {
            return Long.parseLong(s);
        } catch (final NumberFormatException e) {
            return -1;
        }
    }

    private static List<String> lines(final Path p) {
        try {
            return Files.readAllLines(p, StandardCharsets.US_ASCII);
        } catch (final IOException | RuntimeException e) {
            return List.of();
        }
    }
}
