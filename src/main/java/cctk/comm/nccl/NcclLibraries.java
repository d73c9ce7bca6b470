package cctk.comm.nccl;

import cctk.CctkException;
import cctk.EnvVar;
import cctk.Environment;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.javacpp.Loader;

/**
 * Loads JavaCPP's cudart and nccl JNI libraries (and through them the site's libcuda, libcudart and libnccl)
 * once per process, or explains in one paragraph why it cannot: which library is missing or too old and what to
 * do. JavaCPP's own errors name the wrong thing (the top message is "no jnicudart in java.library.path"; the
 * reason is in the causes, and every later touch is a NoClassDefFoundError that hides it), so the first failure is
 * kept and classified. Before loading it points JavaCPP's extraction cache at node-local disk (the default is in
 * $HOME, often NFS with slow locks or mounted noexec) and loads the user's libcudart and libnccl itself, by
 * absolute path: with pathsFirst, JavaCPP preloads a library from the preset's link paths (/usr/local/cuda/lib64,
 * /usr/lib64, ...) before java.library.path, so a toolkit's libcudart or a distribution's libnccl there would win
 * over the module on LD_LIBRARY_PATH and over nccl.library. Once a library with the soname is loaded, the JNI
 * libraries bind to it; the chosen directories also go first on JavaCPP's link path (the
 * org.bytedeco.javacpp.platform.linkpath property, JavaCPP's Loader), so its own preload finds the same files.
 * <b>Note:</b> threadsafe (one load per process).
 */
public final class NcclLibraries {

    /** The CUDA major version this jar's preset was built for (a compile-time constant: loads nothing). */
    public static final int CUDA_MAJOR = cudart.CUDART_VERSION / 1000;
    /** The oldest NCCL cctk calls into: grouped ncclSend/ncclRecv came with 2.7. */
    public static final int MIN_NCCL = NcclTypes.version(2, 7, 0);

    /**
     * The NCCL functions cctk calls without a guard (all in NCCL 2.7); ncclAlltoAll (2.28+) and ncclGetLastError
     * (2.13+) are called only where {@link #has} finds them.
     */
    public static final List<String> REQUIRED = List.of("ncclGetVersion", "ncclGetUniqueId", "ncclCommInitRank",
            "ncclCommDestroy", "ncclCommAbort", "ncclCommGetAsyncError", "ncclGetErrorString", "ncclAllReduce",
            "ncclAllGather", "ncclReduceScatter", "ncclBroadcast", "ncclReduce", "ncclSend", "ncclRecv",
            "ncclGroupStart", "ncclGroupEnd");

    static final String CACHE_PROPERTY = "org.bytedeco.javacpp.cachedir";
    static final String PATHS_FIRST_PROPERTY = "org.bytedeco.javacpp.pathsFirst";
    static final String LINK_PATH_PROPERTY = "org.bytedeco.javacpp.platform.linkpath";
    private static final Pattern CANNOT_OPEN = Pattern.compile("([^\\s/:]+\\.so(\\.\\d+)*): cannot open shared object");
    private static final Pattern GLIBC = Pattern.compile("version .(GLIBC_[0-9.]+). not found(?: \\(required by"
            + " ([^)\\s]+)\\))?");
    private static final Pattern NO_JNI = Pattern.compile("Could not find (jni\\w+) in class");
    private static final Pattern PLATFORM = Pattern.compile("Platform \"([^\"]+)\" not supported");
    private static final String NCCL_SONAME = "libnccl.so.2";

    private static boolean loaded;
    private static CctkException failure;
    /** The libnccl this process loaded, and the nccl.library that chose it (null: the library path). */
    private static Path loadedNccl;
    private static String loadedLibrary;
    /** What chose JavaCPP's cache, for the paragraph of a load that failed on it. */
    private static String cacheChosenBy = "";

    private NcclLibraries() {
    }

    /**
     * Loads the libraries, or throws CctkException(ENVIRONMENT) explaining why not (the same one on every call). A
     * process holds one libnccl.so.2: once it is loaded, a call that chooses another file (another nccl.library, or
     * another one first on LD_LIBRARY_PATH) is refused in one paragraph naming both, since every figure would come
     * from the first.
     *
     * @param env     the process environment (cache location)
     * @param library a libnccl.so.2 file or its directory to use instead of the one on the library path, or null
     */
    public static synchronized void load(final Environment env, final String library) {
        if (loaded) {
            final String other = SecondChoice.reason(loadedNccl, loadedLibrary, library, chosen(library,
                    env.getOrDefault(EnvVar.LD_LIBRARY_PATH, ""), CUDA_MAJOR).get(NCCL_SONAME));
            if (other != null) {
                throw CctkException.environment(other);
            }
            return;
        }
        if (failure != null) {
            throw failure;
        }
        try {
            final Path chosen = prepare(env, library).get(NCCL_SONAME);
            Loader.load(nccl.class);
            loaded = true;
            loadedLibrary = library;
            loadedNccl = mapped().stream().filter(m -> m.substring(m.lastIndexOf('/') + 1).startsWith("libnccl"))
                    .findFirst().map(Path::of).orElse(chosen);
        } catch (LinkageError | RuntimeException e) {
            failure = e instanceof CctkException c ? c : CctkException.environment(explain(chain(e), env, library), e);
            throw failure;
        }
    }

    /** The paragraph of a failed load: a library that a noexec mount kept from loading, else {@link #explain}. */
    private static String explain(final String chain, final Environment env, final String library) {
        final Path cache = Path.of(System.getProperty(CACHE_PROPERTY, cacheDir(env).toString()));
        final String noexec = CacheMount.noexecReason(chain, cache, cacheChosenBy, CacheMount::of);
        return noexec != null ? "The nccl backend cannot start on " + hostName() + ": " + noexec
                : explain(chain, Loader.getPlatform(), CUDA_MAJOR, library);
    }

    /** Points JavaCPP at its cache and the chosen libraries, and loads those; returns them (soname to file). */
    private static Map<String, Path> prepare(final Environment env, final String library) {
        cacheChosenBy = CacheMount.chosenBy(env, System.getProperty(CACHE_PROPERTY) != null);
        if (System.getProperty(CACHE_PROPERTY) == null) {
            System.setProperty(CACHE_PROPERTY, cacheDir(env).toString());
        }
        dropLibraryLinks(Path.of(System.getProperty(CACHE_PROPERTY)), searched(env, library));
        if (System.getProperty(PATHS_FIRST_PROPERTY) == null) {
            System.setProperty(PATHS_FIRST_PROPERTY, "true");
        }
        if (library != null && !Files.exists(Path.of(library))) {
            throw CctkException.environment("nccl.library is " + library + ", which does not exist on "
                    + hostName() + "; give the path of a libnccl.so.2 (or its directory) that every node can read.");
        }
        final Map<String, Path> chosen = chosen(library, env.getOrDefault(EnvVar.LD_LIBRARY_PATH, ""), CUDA_MAJOR);
        if (System.getProperty(LINK_PATH_PROPERTY) == null && !chosen.isEmpty()) {
            System.setProperty(LINK_PATH_PROPERTY, String.join(File.pathSeparator, chosen.values().stream()
                    .map(f -> f.getParent().toString()).distinct().toList()));
        }
        for (final Path f : chosen.values()) {
            // by absolute path: the dynamic linker then holds the soname, and the JNI libraries bind to this file
            System.load(f.toString());
        }
        return chosen;
    }

    /**
     * The libcudart.so.MAJOR and libnccl.so.2 files the user chose, in load order (soname to absolute file): for
     * each, nccl.library (the file itself for libnccl, or its directory), then LD_LIBRARY_PATH's directories in
     * order; the first existing file wins. A library found nowhere is left out (the load then explains it).
     *
     * @param library       nccl.library (a libnccl.so.2 file or its directory), or null
     * @param ldLibraryPath the process's LD_LIBRARY_PATH, or ""
     * @param cudaMajor     the CUDA major of the preset (names libcudart.so.MAJOR)
     */
    static Map<String, Path> chosen(final String library, final String ldLibraryPath, final int cudaMajor) {
        final List<Path> dirs = new ArrayList<>();
        Path ncclFile = null;
        if (library != null && !library.isBlank()) {
            final Path p = Path.of(library).toAbsolutePath().normalize();
            if (Files.isRegularFile(p)) {
                ncclFile = p;
                dirs.add(p.getParent());
            } else {
                dirs.add(p);
            }
        }
        for (final String d : ldLibraryPath.split(":")) {
            if (!d.isBlank()) {
                dirs.add(Path.of(d).toAbsolutePath().normalize());
            }
        }
        final Map<String, Path> out = new LinkedHashMap<>();
        for (final String soname : List.of("libcudart.so." + cudaMajor, "libnccl.so.2")) {
            final Path own = soname.startsWith("libnccl") ? ncclFile : null;
            final Path found = own != null ? own : dirs.stream().map(d -> d.resolve(soname))
                    .filter(Files::isRegularFile).findFirst().orElse(null);
            if (found != null) {
                out.put(soname, found);
            }
        }
        return out;
    }

    /** The libcudart and libnccl files this process has mapped, e.g. "libcudart /a/libcudart.so.13 libnccl ...". */
    public static String loadedFiles() {
        final StringBuilder sb = new StringBuilder();
        for (final String kind : List.of("libcudart", "libnccl")) {
            for (final String lib : mapped()) {
                if (lib.substring(lib.lastIndexOf('/') + 1).startsWith(kind)) {
                    sb.append(sb.isEmpty() ? "" : " ").append(kind).append(' ').append(lib);
                }
            }
        }
        return sb.toString();
    }

    /** Where JavaCPP extracts its JNI libraries: CCTK_JAVACPP_CACHE, else node-local $SLURM_TMPDIR/$TMPDIR//tmp. */
    public static Path cacheDir(final Environment env) {
        final String own = env.optional(EnvVar.CCTK_JAVACPP_CACHE);
        if (own != null && !own.isBlank()) {
            return Path.of(own);
        }
        String base = env.optional(EnvVar.SLURM_TMPDIR);
        if (base == null || base.isBlank()) {
            base = env.optional(EnvVar.TMPDIR);
        }
        if (base == null || base.isBlank()) {
            base = "/tmp";
        }
        final String user = env.getOrDefault(EnvVar.USER, System.getProperty("user.name", "user"));
        return Path.of(base, "cctk-javacpp-" + user.replaceAll("[^A-Za-z0-9._-]", "_"));
    }

    /**
     * Removes the links to site libraries (libnccl, libcudart, libcuda) that JavaCPP left in its cache on an earlier
     * load and that point outside today's search path: it would use them again when the library is no longer on the
     * path (a stale libnccl.so.2 from another module, or from an nccl.library since dropped). Links into today's
     * directories stay, so ranks of one node sharing the cache never remove what another is loading; JavaCPP's own
     * extracted JNI libraries (regular files) stay.
     *
     * @param cache    JavaCPP's cache directory
     * @param searched the directories today's libraries may come from (LD_LIBRARY_PATH, nccl.library)
     * @return how many links were removed
     */
    static int dropLibraryLinks(final Path cache, final Set<Path> searched) {
        if (!Files.isDirectory(cache)) {
            return 0;
        }
        int dropped = 0;
        try (var files = Files.walk(cache, 8)) {
            for (final Path p : (Iterable<Path>) files::iterator) {
                final String name = p.getFileName().toString();
                if (Files.isSymbolicLink(p) && (name.startsWith("libnccl.so") || name.startsWith("libcudart.so")
                        || name.startsWith("libcuda.so")) && !searched.contains(target(p))) {
                    Files.deleteIfExists(p);
                    dropped++;
                }
            }
        } catch (IOException | RuntimeException e) {
            return dropped; // a cache we cannot clean: JavaCPP's own load explains what goes wrong
        }
        return dropped;
    }

    /** The directory a link's target lies in (absolute, not further resolved), or null. */
    private static Path target(final Path link) throws IOException {
        final Path parent = link.getParent().resolve(Files.readSymbolicLink(link)).normalize().getParent();
        return parent == null ? null : parent.toAbsolutePath();
    }

    /** LD_LIBRARY_PATH's, java.library.path's, the system's and nccl.library's directories (absolute). */
    static Set<Path> searched(final Environment env, final String library) {
        final Set<Path> dirs = new LinkedHashSet<>();
        final String path = env.getOrDefault(EnvVar.LD_LIBRARY_PATH, "") + ":"
                + System.getProperty("java.library.path", "")
                + ":/lib:/lib64:/usr/lib:/usr/lib64:/usr/lib/x86_64-linux-gnu:/usr/lib/aarch64-linux-gnu"
                + ":/usr/local/cuda/lib64";
        for (final String d : path.split(":")) {
            if (!d.isBlank()) {
                dirs.add(Path.of(d).toAbsolutePath().normalize());
            }
        }
        if (library != null && !library.isBlank()) {
            final Path p = Path.of(library).toAbsolutePath().normalize();
            dirs.add(Files.isDirectory(p) || p.getParent() == null ? p : p.getParent());
        }
        return dirs;
    }

    /** The messages of {@code t} and its causes, one a line (JavaCPP puts the real reason in a cause). */
    static String chain(final Throwable t) {
        final StringBuilder sb = new StringBuilder();
        final Set<Throwable> seen = new LinkedHashSet<>();
        for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) {
            sb.append(c.getClass().getName()).append(": ").append(c.getMessage()).append('\n');
        }
        return sb.toString();
    }

    /** One paragraph naming what is missing and what to do, from the text of a failed load. */
    static String explain(final String chain, final String platform, final int cudaMajor, final String library) {
        final String head = "The nccl backend cannot start on " + hostName() + ": ";
        final Matcher open = CANNOT_OPEN.matcher(chain);
        if (open.find()) {
            final String lib = open.group(1);
            if (lib.startsWith("libcuda.so")) {
                return head + "there is no NVIDIA driver on this node (" + lib + " not found). Run the nccl backend"
                        + " on a GPU node, or list only tcp in benchmark.backends for CPU nodes.";
            }
            if (lib.startsWith("libcudart.so")) {
                return head + "the CUDA runtime " + lib + " was not found. Load the site's CUDA " + cudaMajor
                        + ".x module (module load cuda) or add its lib64 directory to LD_LIBRARY_PATH; if the site only"
                        + " has another CUDA major, build cctk for it (mvn -Pcuda12 package for CUDA 12, see"
                        + " docs/nccl.md).";
            }
            if (lib.startsWith("libnccl.so")) {
                return head + "NCCL (" + lib + ") was not found" + (library == null ? "" : " (nccl.library: "
                        + library + ")") + ". Load the site's NCCL module (module load nccl) or add the directory"
                        + " holding " + lib + " to LD_LIBRARY_PATH, or set nccl.library in the spec.";
            }
            return head + lib + " was not found. Add its directory to LD_LIBRARY_PATH.";
        }
        final Matcher glibc = GLIBC.matcher(chain);
        if (glibc.find()) {
            final String by = glibc.group(2) == null ? "" : glibc.group(2).substring(glibc.group(2).lastIndexOf('/')
                    + 1);
            if (!by.isEmpty() && !by.startsWith("libjni")) {
                return head + glibc.group(2) + " needs " + glibc.group(1) + ", newer than this node's C library (ldd"
                        + " --version). That is the site's library, not cctk's: another cctk build will not help."
                        + " Use a " + by + " built for this OS (the site's module), or set nccl.library to one.";
            }
            return head + "this build's native code needs " + glibc.group(1) + ", newer than this node's C library"
                    + " (ldd --version). Build cctk with mvn -Pcuda12-oldglibc package (JavaCPP 1.5.11, glibc 2.14+)"
                    + " and run it on a Java runtime built for old glibc (docs/nccl.md).";
        }
        final Matcher jni = NO_JNI.matcher(chain);
        if (jni.find()) {
            return head + "this jar carries no " + jni.group(1) + " for platform " + platform + ". Build it for"
                    + " this machine: mvn -Djavacpp.platform=" + platform + " package.";
        }
        final Matcher plat = PLATFORM.matcher(chain);
        if (plat.find()) {
            return head + "NCCL needs Linux on x86_64 or arm64, and this is " + plat.group(1) + ".";
        }
        if (chain.contains("Could not create the cache")) {
            return head + "JavaCPP could not create its library cache. Set CCTK_JAVACPP_CACHE to a writable,"
                    + " exec-allowed directory on local disk.";
        }
        // the innermost cause, without its exception class
        final String first = chain.lines().reduce((a, b) -> b).orElse(chain).trim()
                .replaceFirst("^[\\w.$]+(Error|Exception): ", "");
        return head + "loading the CUDA/NCCL libraries failed (" + first + "). Check module load cuda/nccl and"
                + " LD_LIBRARY_PATH; this build is for CUDA " + cudaMajor + ".";
    }

    /** One paragraph: the loaded libnccl lacks {@code functions}. */
    static String lacking(final List<String> functions) {
        final String lib = mapped().stream().filter(m -> m.contains("libnccl")).findFirst().orElse("libnccl.so.2");
        return "The nccl backend cannot start on " + hostName() + ": the loaded " + lib + " lacks " + String.join(", ",
                functions) + " (calling a missing function would kill the process). It is not a usable NCCL 2.7 or"
                + " newer: load the site's NCCL module or set nccl.library to a real libnccl.so.2.";
    }

    /** Whether the loaded libraries export {@code symbol}: calling a missing NCCL function kills the JVM. */
    public static boolean has(final String symbol) {
        return Loader.addressof(symbol) != null;
    }

    /** The CUDA and NCCL libraries this process has mapped, from the text of /proc/self/maps. */
    static List<String> mapped(final String maps) {
        final Set<String> out = new LinkedHashSet<>();
        for (final String line : maps.split("\n")) {
            final int slash = line.indexOf('/');
            if (slash < 0) {
                continue;
            }
            final String path = line.substring(slash).trim();
            final String name = path.substring(path.lastIndexOf('/') + 1);
            if (name.startsWith("libcuda.so") || name.startsWith("libcudart.so") || name.startsWith("libnccl")) {
                out.add(path);
            }
        }
        return new ArrayList<>(out);
    }

    /** {@link #mapped(String)} of this process, or an empty list where /proc is not there. */
    static List<String> mapped() {
        try {
            return mapped(Files.readString(Path.of("/proc/self/maps")));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "this node";
        }
    }
}
