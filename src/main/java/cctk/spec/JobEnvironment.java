package cctk.spec;

import cctk.CctkException;
import cctk.Environment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The environment a spec gives its ranks, in one place for every launcher: the sbatch script exports it (the
 * renderer quotes each value), {@code cctk run} puts it into each rank's process environment. In order: glibc's
 * allocator settings of a job that runs gloo ({@link #glooAllocator}), the spec's {@code nccl_env}, its {@code env},
 * then {@code nccl.debug}'s {@code NCCL_DEBUG=INFO} and per-rank {@code NCCL_DEBUG_FILE} when the spec runs NCCL;
 * later entries win. A name that is not a variable name is refused naming its key.
 * <b>Note:</b> threadsafe (no state).
 */
public final class JobEnvironment {

    /**
     * A bash condition, true where the environment sets none of glibc's allocator variables ({@code GLIBC_TUNABLES},
     * {@code MALLOC_*}); builtins only, no pipe.
     */
    public static final String ALLOCATOR_UNSET = "[ -z \"${GLIBC_TUNABLES+x}\" ] && [ -z \"$(compgen -e MALLOC_)\" ]";

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final String GLOO = "gloo";

    /**
     * One variable.
     *
     * @param name  the variable
     * @param value its value, as the rank sees it
     * @param key   the spec key it comes from, for messages ({@code nccl_env.NCCL_ALGO}, {@code nccl.debug})
     */
    public record Variable(String name, String value, String key) {
    }

    private JobEnvironment() {
    }

    /** The spec's {@code nccl_env} then {@code env}. */
    public static List<Variable> exported(final JobSpec spec) {
        final List<Variable> out = new ArrayList<>();
        add(out, "nccl_env", spec.ncclEnv());
        add(out, "env", spec.env());
        return out;
    }

    /** {@code nccl.debug}'s variables (NCCL's INFO log, one file per rank under the output directory), or none. */
    public static List<Variable> ncclDebug(final JobSpec spec) {
        if (!runsNccl(spec) || !spec.nccl().debug()) {
            return List.of();
        }
        return List.of(new Variable("NCCL_DEBUG", "INFO", "nccl.debug"),
            new Variable("NCCL_DEBUG_FILE", ncclDebugDir(spec) + "/%h.%p.log", "job.output_dir"));
    }

    /** Where {@code nccl.debug}'s log files go (the job creates it before its ranks start). */
    public static String ncclDebugDir(final JobSpec spec) {
        return spec.job().outputDir() + "/nccl-debug";
    }

    /**
     * Everything a rank gets: {@link #glooAllocator}, {@link #exported}, then {@link #ncclDebug}. A launcher leaves
     * out {@link #glooAllocator}'s variables where the environment the ranks inherit sets the allocator itself.
     */
    public static List<Variable> of(final JobSpec spec) {
        final List<Variable> out = new ArrayList<>(glooAllocator(spec));
        out.addAll(exported(spec));
        out.addAll(ncclDebug(spec));
        return out;
    }

    /**
     * glibc's allocator settings for a job that runs gloo, unless the spec's {@code env} or {@code nccl_env} sets
     * {@code GLIBC_TUNABLES} or any {@code MALLOC_*} variable itself (then it is the spec's to set; and a launcher
     * leaves them out where the ranks' inherited environment sets one, {@link #ALLOCATOR_UNSET}): a fixed mmap
     * threshold of 32 MiB (glibc's largest dynamic one) and a top pad of 64 MiB (a secondary arena's whole heap).
     * c10d's Gloo takes per-call temporaries of the message size (all_gather's gathered tensor) in its worker
     * threads. In a Python program those threads' arenas settle after a few calls and reuse warm memory; in a JVM,
     * with its own threads' allocations in the same arenas, glibc keeps making and deleting heaps for them, so the
     * temporaries are fresh pages on many calls (measured: bench/RESULTS.md, issue 28, sets S0-S2). The pad keeps a
     * heap from being deleted or trimmed once a temporary fits in it, and the fixed threshold keeps temporaries up to
     * 32 MiB in the heaps, as the dynamic threshold a Python process reaches does. Each rank's header names both.
     */
    public static List<Variable> glooAllocator(final JobSpec spec) {
        final Benchmark b = spec.benchmark();
        if (b == null || b.backends() == null || !b.backends().contains(GLOO) || setsAllocator(spec.env())
                || setsAllocator(spec.ncclEnv())) {
            return List.of();
        }
        return List.of(new Variable("MALLOC_MMAP_THRESHOLD_", Long.toString(32L << 20), "benchmark.backends"),
            new Variable("MALLOC_TOP_PAD_", Long.toString(64L << 20), "benchmark.backends"));
    }

    private static boolean setsAllocator(final Map<String, String> vars) {
        return vars != null && vars.keySet().stream().anyMatch(Environment::isAllocator);
    }

    /** Whether the spec runs a backend that its nccl section describes. */
    public static boolean runsNccl(final JobSpec spec) {
        final NcclOptions n = spec.nccl();
        return n != null && spec.benchmark() != null && spec.benchmark().backends() != null
            && spec.benchmark().backends().stream().anyMatch(n::serves);
    }

    private static void add(final List<Variable> out, final String section, final Map<String, String> vars) {
        if (vars == null) {
            return;
        }
        for (final Map.Entry<String, String> e : vars.entrySet()) {
            final String key = section + "." + e.getKey();
            if (!NAME.matcher(e.getKey()).matches()) {
                throw CctkException.usage("'" + key + "' is not a valid environment variable name: use letters, "
                    + "digits and '_', not starting with a digit.");
            }
            out.add(new Variable(e.getKey(), e.getValue() == null ? "" : e.getValue(), key));
        }
    }
}
