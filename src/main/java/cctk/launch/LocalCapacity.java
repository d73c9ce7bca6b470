package cctk.launch;

import cctk.CctkException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How many rank processes this machine can hold, so that {@code cctk run --nproc 5000} on a login node is refused
 * in one paragraph instead of starting 5000 JVMs. Three bounds, the smallest wins: memory (what the kernel and
 * the memory cgroup, v1 or v2, leave available, over a per-rank estimate), processes (the user's RLIMIT_NPROC less
 * the threads of the user's real uid, and the pids cgroup of this process, both counted in threads, over the threads
 * a JVM rank starts, {@link #threadsPerRank}), and cores
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
    /**
     * Threads a rank's JVM starts besides its JIT compilers (main, store, progress, signal, reference handling, the
     * serial collector's VM thread and the like): 18 measured with ps -L on 2 cores, plus a margin of 6.
     */
    public static final int RANK_THREADS_BESIDES_COMPILERS = 24;
    /** Ranks per core before the run measures the scheduler rather than the collectives. */
    public static final int RANKS_PER_CORE = 32;
    /** The flag that skips the check. */
    public static final String OVERRIDE = "--oversubscribe";

    /**
     * Threads one rank's JVM holds on a machine of {@code cores}: {@link #RANK_THREADS_BESIDES_COMPILERS} and its JIT
     * compiler threads, which all start with it (RankJvm turns dynamic compiler threads off): HotSpot's default
     * count for tiered compilation, max(2, 1.5 log2(cores) log2(log2(cores))) as the OpenJDK source
     * (compilationPolicy.cpp) computes it: 2 on up to 3 cores, 3 on 4 to 7, 21 on 128.
     */
    public static int threadsPerRank(final int cores) {
        final int log = 31 - Integer.numberOfLeadingZeros(Math.max(1, cores));
        final int logLog = 31 - Integer.numberOfLeadingZeros(Math.max(1, log));
        return RANK_THREADS_BESIDES_COMPILERS + Math.max(2, log * logLog * 3 / 2);
    }

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
        final long uid = realUid(Path.of("/proc/self/status"));
        // setrlimit(2): RLIMIT_NPROC counts the threads of the caller's real user ID and is not enforced for
        // real user ID 0
        if (nproc >= 0 && uid > 0) {
            final long mine = userThreads(Path.of("/proc"), uid);
            threads = Math.max(0, nproc - mine);
            threadsFrom = "RLIMIT_NPROC (ulimit -u " + nproc + ") less the " + mine + " threads user " + uid
                    + " runs now";
        }
        final long pids = cgroupPidsLeft(Path.of("/sys/fs/cgroup"), lines(Path.of("/proc/self/cgroup")));
        if (pids >= 0 && (threads < 0 || pids < threads)) {
            threads = pids;
            threadsFrom = "the pids cgroup's limit less its tasks";
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
            max = Math.min(max, threads / threadsPerRank(cores));
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
        if (threads >= 0 && (long) ranks * threadsPerRank(cores) > threads) {
            why.append(why.length() == 0 ? "" : "; ").append("about ").append((long) ranks * threadsPerRank(cores))
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

    /**
     * What the pids cgroups of this process leave: the smallest pids.max − pids.current from its own cgroup up to
     * the root of the hierarchy (v2: the "0::" line of {@code cgroupLines}, the lines of /proc/self/cgroup; v1:
     * the "pids" controller's line, mounted at {@code root}/pids), or -1 when no level sets a limit. A cgroup path
     * not visible under {@code root} (a container's own namespace) falls back to the root's files.
     */
    static long cgroupPidsLeft(final Path root, final List<String> cgroupLines) {
        long left = -1;
        for (final String line : cgroupLines) {
            final String[] f = line.split(":", 3);
            if (f.length < 3) {
                continue;
            }
            final Path mount;
            if (f[0].equals("0") && f[1].isEmpty()) {
                mount = root;
            } else if (List.of(f[1].split(",")).contains("pids")) {
                mount = root.resolve("pids");
            } else {
                continue;
            }
            final long here = pidsLeftFrom(mount, f[2]);
            if (here >= 0 && (left < 0 || here < left)) {
                left = here;
            }
        }
        if (left < 0 && cgroupLines.isEmpty()) {
            final long v2 = limitLeft(root.resolve("pids.max"), root.resolve("pids.current"));
            return v2 >= 0 ? v2 : limitLeft(root.resolve("pids/pids.max"), root.resolve("pids/pids.current"));
        }
        return left;
    }

    /** The smallest limit − used from {@code mount}/{@code path} up to {@code mount}, or -1 when none is set. */
    private static long pidsLeftFrom(final Path mount, final String path) {
        Path dir = mount;
        for (final String part : path.split("/")) {
            if (!part.isEmpty() && !part.equals("..") && !part.equals(".")) {
                dir = dir.resolve(part);
            }
        }
        if (!Files.isDirectory(dir)) {
            dir = mount;
        }
        long left = -1;
        for (Path d = dir; d != null && d.startsWith(mount); d = d.getParent()) {
            final long here = limitLeft(d.resolve("pids.max"), d.resolve("pids.current"));
            if (here >= 0 && (left < 0 || here < left)) {
                left = here;
            }
        }
        return left;
    }

    /**
     * Threads whose real user ID is {@code uid}, summed over the "Threads:" lines of {@code proc}/[pid]/status
     * (the count RLIMIT_NPROC holds against that user); a process that ends while it is read is skipped.
     */
    static long userThreads(final Path proc, final long uid) {
        long total = 0;
        try (DirectoryStream<Path> pids = Files.newDirectoryStream(proc, p -> isNumber(p.getFileName().toString()))) {
            for (final Path pid : pids) {
                final List<String> status = lines(pid.resolve("status"));
                if (realUid(status) == uid) {
                    total += Math.max(1, field(status, "Threads:"));
                }
            }
        } catch (final IOException | RuntimeException e) {
            return total;
        }
        return total;
    }

    /** The real user ID (first figure of the "Uid:" line) of a status file, or -1. */
    static long realUid(final Path status) {
        return realUid(lines(status));
    }

    private static long realUid(final List<String> status) {
        return field(status, "Uid:");
    }

    /** The first figure after {@code key} on its line, or -1. */
    private static long field(final List<String> lines, final String key) {
        for (final String line : lines) {
            if (line.startsWith(key)) {
                final String[] f = line.substring(key.length()).trim().split("\\s+");
                return f.length == 0 ? -1 : number(f[0]);
            }
        }
        return -1;
    }

    private static boolean isNumber(final String s) {
        return !s.isEmpty() && s.chars().allMatch(c -> c >= '0' && c <= '9');
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
