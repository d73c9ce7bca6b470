package cctk.comm.nccl;

import cctk.EnvVar;
import cctk.Environment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why a library could not be loaded from a directory mounted noexec (JavaCPP's cache, most often: JavaCPP extracts
 * its JNI libraries there and loads them from there). The mount holding a directory is read from
 * /proc/self/mountinfo, one mount a line with its mount point in the fifth field and its per-mount options in the
 * sixth (the format proc(5) documents; octal escapes such as {@code \040} for a space); of the mount points that
 * hold the directory the longest wins, and of equal ones the last (a mount over another). The dynamic loader's own
 * word for such a library is "failed to map segment from shared object" (mmap with PROT_EXEC refused).
 * <b>Note:</b> threadsafe (no state).
 */
final class CacheMount {

    private static final Pattern MAP_FAILED = Pattern.compile("(/[^\\s:]+): failed to map segment from shared object");
    private static final Pattern ESCAPE = Pattern.compile("\\\\([0-7]{3})");

    /**
     * A mount.
     *
     * @param point   where it is mounted
     * @param noexec  whether its options forbid executing (and so loading libraries) from it
     */
    record Mount(Path point, boolean noexec) {
    }

    private CacheMount() {
    }

    /** The mount holding {@code dir} (absolute, links resolved) as {@code mountinfo} lists them; null if none. */
    static Mount of(final Path dir, final String mountinfo) {
        Mount best = null;
        for (final String line : mountinfo.split("\n")) {
            final String[] f = line.trim().split(" ");
            if (f.length < 6) {
                continue;
            }
            final Path point = Path.of(unescape(f[4]));
            if (dir.startsWith(point) && (best == null || point.getNameCount() >= best.point().getNameCount())) {
                best = new Mount(point, (',' + f[5] + ',').contains(",noexec,"));
            }
        }
        return best;
    }

    /** The mount holding {@code dir} in this process, or null where /proc/self/mountinfo cannot be read. */
    static Mount of(final Path dir) {
        try {
            return of(real(dir), Files.readString(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** {@code dir} with its existing part's links resolved (a cache not made yet lies in its parent's mount). */
    static Path real(final Path dir) throws IOException {
        Path existing = dir.toAbsolutePath().normalize();
        Path rest = existing.getFileSystem().getPath("");
        while (existing.getParent() != null && !Files.exists(existing)) {
            rest = existing.getFileName().resolve(rest);
            existing = existing.getParent();
        }
        return existing.toRealPath().resolve(rest);
    }

    private static String unescape(final String field) {
        final Matcher m = ESCAPE.matcher(field);
        final StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement(String.valueOf((char) Integer.parseInt(m.group(1), 8))));
        }
        return m.appendTail(sb).toString();
    }

    /** What chose JavaCPP's cache: the JVM's property, CCTK_JAVACPP_CACHE or cctk's default. */
    static String chosenBy(final Environment env, final boolean property) {
        if (property) {
            return "the JVM's -D" + NcclLibraries.CACHE_PROPERTY + ", which wins over CCTK_JAVACPP_CACHE";
        }
        final String own = env.optional(EnvVar.CCTK_JAVACPP_CACHE);
        return own != null && !own.isBlank() ? "CCTK_JAVACPP_CACHE" : "cctk's default under $SLURM_TMPDIR, $TMPDIR or"
            + " /tmp";
    }

    /**
     * The reason a load failed when a library could not be mapped from a noexec mount (the text of the failure,
     * {@code chain}, or the cache's own mount says so), or null when that was not the reason.
     *
     * @param chain    the failure's messages, one a line
     * @param cache    JavaCPP's cache directory
     * @param chosenBy what chose it ({@link #chosenBy})
     * @param mounts   the mount of a directory (this process's: {@link #of(Path)})
     */
    static String noexecReason(final String chain, final Path cache, final String chosenBy,
                               final java.util.function.Function<Path, Mount> mounts) {
        final Matcher failed = MAP_FAILED.matcher(chain);
        final Path file = failed.find() ? Path.of(failed.group(1)) : null;
        final Mount cacheMount = mounts.apply(cache);
        final String fix = "Set CCTK_JAVACPP_CACHE to a directory on local disk whose file system allows it (findmnt"
            + " -T DIR lists its options; noexec must not be among them), e.g. under $SLURM_TMPDIR or $HOME, and run"
            + " again.";
        if (file == null || file.startsWith(cache) || file.toAbsolutePath().startsWith(cache.toAbsolutePath())) {
            if (cacheMount != null && cacheMount.noexec()) {
                return "JavaCPP's library cache " + cache + " (chosen by " + chosenBy + ") is on a file system"
                    + " mounted noexec (" + cacheMount.point() + "), from which no library can be loaded. " + fix;
            }
            return file == null ? null : "a library in JavaCPP's cache " + cache + " (chosen by " + chosenBy
                + ") could not be mapped for execution (" + file.getFileName() + ": failed to map segment from shared"
                + " object): its file system is mounted noexec, or a security policy forbids executing from it. " + fix;
        }
        final Mount m = mounts.apply(file);
        return m == null || !m.noexec() ? null : file + " is on a file system mounted noexec (" + m.point() + "),"
            + " from which it cannot be loaded. Copy it to a directory that allows it and point nccl.library or"
            + " LD_LIBRARY_PATH there.";
    }
}
