package cctk.spec;

import cctk.comm.DType;
import cctk.comm.Tuning;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM options every rank of a job starts with, for both launchers ({@code cctk run} and the job script's srun
 * line): memory sized from the plan, not from the machine, and a fast start.
 * <ul>
 * <li>{@code -Xmx}: 256 MiB plus 32 KiB per rank of the largest world (rank 0 serves the store: two 8 KiB stream
 * buffers a rank), with {@code -Xms32m}; the heap holds only bookkeeping.</li>
 * <li>{@code -XX:MaxDirectMemorySize}: what the tcp backend holds in direct memory, from the largest message S of the
 * sweep: the sweep's input and output buffers (each at most S), the copy in-place all-to-all and send/recv make (at
 * most S), 512 KiB of staging per peer and NIC, and 64 MiB for sockets' and cctk's small buffers. A spec that runs
 * only nccl gets the 64 MiB (its buffers live on the GPU).</li>
 * <li>{@code -XX:+UseSerialGC}: a small heap that allocates nothing while it is timed needs no concurrent
 * collector, its threads or their memory.</li>
 * <li>{@code -XX:GuaranteedSafepointInterval=0} (a diagnostic option, hence the unlock): no safepoint once a second
 * for housekeeping alone. Every thread stops at one, and on cores held by spinning ranks reaching it took up to 4 ms,
 * inside a timed iteration. Safepoints the JVM needs (a collection, a deoptimisation) still happen.</li>
 * <li>{@code -XX:-UseDynamicNumberOfCompilerThreads}: the JIT's threads all start with the JVM and stay, so the
 * watch the benchmark keeps on them ({@code cctk.bench.CompilerThreads}) sees every one.</li>
 * <li>{@code -Dorg.bytedeco.javacpp.maxPhysicalBytes=0} where a rank runs NCCL: JavaCPP otherwise refuses native
 * allocations once the process's resident memory passes a multiple of {@code -Xmx}, and a CUDA context alone can.</li>
 * <li>class-data sharing: the archive the build makes beside the jar ({@code cctk.jsa}, see the pom) with
 * {@code -Xshare:auto}, so the JVM falls back silently when it is missing or from another JVM or jar; its log
 * tags are off, so a fallback prints nothing.</li>
 * </ul>
 * Tiered compilation stays on for ranks (C2 serves long sweeps); only the launcher runs C1 alone (the {@code cctk}
 * script).
 * <b>Note:</b> threadsafe (no state).
 */
public final class RankJvm {

    /** Direct memory beyond the buffers: sockets' temporary buffers, votes, reductions. */
    static final long DIRECT_BASE = 64L << 20;
    /** Heap of every rank before the store's share. */
    static final long HEAP_BASE = 256L << 20;
    /** Heap rank 0's store takes per rank of the world. */
    static final long HEAP_PER_RANK = 32L << 10;
    /** The tcp backend's largest buffer (one ByteBuffer). */
    private static final long TCP_MAX_BUFFER = Integer.MAX_VALUE - 8L;

    private RankJvm() {
    }

    /** The options of a rank of {@code spec} started from {@code jar} (its archive sits beside it). */
    public static List<String> options(final JobSpec spec, final Path jar) {
        final Benchmark b = spec.benchmark();
        final int world = b.taskCounts().stream().mapToInt(Integer::intValue).max().orElse(1);
        final boolean tcp = b.backends().stream().anyMatch(n -> !spec.nccl().serves(n));
        final int nics = Math.max(1, spec.resources() == null || spec.resources().nics() == null ? 1
            : spec.resources().nics().size());
        final boolean nccl = b.backends().stream().anyMatch(spec.nccl()::serves);
        if (spec.diagnose() != null) {
            // a diagnosis moves its own message size over one link per NIC and one striped over all at a time
            final long bytes = Math.max(largest(b), spec.diagnose().bytes());
            return options(tcpDirectBytes(bytes, world, nics + 1), world, false, jar);
        }
        return options(tcp ? tcpDirectBytes(largest(b), world, nics) : DIRECT_BASE, world, nccl, jar);
    }

    /**
     * The options of a rank that holds {@code directBytes} of direct memory in a world of {@code world}; {@code nccl}:
     * it may run NCCL through JavaCPP.
     */
    public static List<String> options(final long directBytes, final int world, final boolean nccl, final Path jar) {
        final List<String> o = new ArrayList<>();
        o.add("-Xms32m");
        o.add("-Xmx" + mib(HEAP_BASE + HEAP_PER_RANK * world) + "m");
        o.add("-XX:MaxDirectMemorySize=" + mib(directBytes) + "m");
        o.add("-XX:+UseSerialGC");
        o.add("-XX:+UnlockDiagnosticVMOptions");
        o.add("-XX:GuaranteedSafepointInterval=0");
        o.add("-XX:-UseDynamicNumberOfCompilerThreads");
        if (nccl) {
            o.add("-Dorg.bytedeco.javacpp.maxPhysicalBytes=0");
        }
        o.addAll(sharing(jar));
        return o;
    }

    /**
     * Class-data sharing with the archive beside {@code jar} ({@code x.jar} → {@code x.jsa}), silent when it cannot
     * be used; none when {@code jar} is not a jar (tests run from class directories).
     */
    public static List<String> sharing(final Path jar) {
        final String name = jar == null || jar.getFileName() == null ? "" : jar.getFileName().toString();
        if (!name.endsWith(".jar")) {
            return List.of();
        }
        final Path archive = jar.resolveSibling(name.substring(0, name.length() - 4) + ".jsa");
        return List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto", "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
    }

    /** Direct memory of a tcp rank: input, output and copy of S each, staging per peer and NIC, the base. */
    public static long tcpDirectBytes(final long largest, final int world, final int nics) {
        final long buffer = Math.min(largest, TCP_MAX_BUFFER);
        final long staging = 2L * Tuning.fromSystemProperties().reduceReadBytes() * nics * Math.max(0, world - 1);
        return 3 * buffer + staging + DIRECT_BASE;
    }

    /** The largest message of the sweep in bytes, over its sizes and types. */
    public static long largest(final Benchmark b) {
        long max = 0;
        for (final MessageSize size : b.sizes()) {
            for (final DType type : b.dtypes()) {
                max = Math.max(max, size.bytes(type));
            }
        }
        return max;
    }

    private static String mib(final long bytes) {
        return Long.toString((bytes + (1 << 20) - 1) >> 20);
    }
}
