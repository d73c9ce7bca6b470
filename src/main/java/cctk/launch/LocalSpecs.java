package cctk.launch;

import cctk.CctkException;
import cctk.Printable;
import cctk.OwnerFiles;
import cctk.comm.CollectiveType;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.spec.Benchmark;
import cctk.spec.Cluster;
import cctk.spec.Job;
import cctk.spec.JobEnvironment;
import cctk.spec.JobSpec;
import cctk.spec.MessageSize;
import cctk.spec.Resources;
import cctk.spec.Sizes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * A job spec for {@code cctk run} without a file, from its flags: every default is a spec's default
 * ({@link Benchmark}'s constants), and a bad flag is a usage error that names the flag, before any rank starts.
 * <b>Note:</b> threadsafe (no state).
 */
public final class LocalSpecs {

    /** The job name of a run from flags; its results go to {@code results/run} unless {@code --output} says. */
    public static final String JOB_NAME = "run";
    /** The backends a run from flags may name. */
    public static final List<String> BACKENDS = List.of("tcp", "tcp-flat", "gloo", "nccl");

    /**
     * What the flags say; null or empty means the spec's default.
     *
     * @param nproc       world sizes (default: 2)
     * @param backend     tcp, tcp-flat or nccl (default: tcp)
     * @param collectives spec names (default: all)
     * @param sizes       spec sizes: {@code 4MiB}, {@code 1KB}, or a number of elements (default: 1 MiB)
     * @param dtypes      type names (default: float32)
     * @param ops         operator names (default: sum)
     * @param warmup      untimed iterations per measurement, or null
     * @param iters       timed iterations, or null
     * @param checkIters  checked iterations, or null
     * @param inPlace     both, true or false, or null
     * @param output      the result directory, or null
     * @param repeats     timed repeats per point, or null
     * @param retime      false for raw measurement (no re-timing), or null
     * @param windowMillis the shortest timed loop in ms (0: exactly iters), or null
     * @param timeAcrossRanks max or mean (a loop's time from each rank's mean per call), or null
     */
    public record Flags(List<Integer> nproc, String backend, List<String> collectives, List<String> sizes,
                        List<String> dtypes, List<String> ops, Integer warmup, Integer iters, Integer checkIters,
                        String inPlace, Path output, Integer repeats, Boolean retime, Integer windowMillis,
                        String timeAcrossRanks) {

        /** The flags with the default time across ranks. */
        public Flags(final List<Integer> nproc, final String backend, final List<String> collectives,
                     final List<String> sizes, final List<String> dtypes, final List<String> ops,
                     final Integer warmup, final Integer iters, final Integer checkIters, final String inPlace,
                     final Path output, final Integer repeats, final Boolean retime, final Integer windowMillis) {
            this(nproc, backend, collectives, sizes, dtypes, ops, warmup, iters, checkIters, inPlace, output, repeats,
                retime, windowMillis, null);
        }
    }

    private LocalSpecs() {
    }

    /** The spec the flags describe. */
    public static JobSpec fromFlags(final Flags f) {
        final List<Integer> nproc = f.nproc() == null || f.nproc().isEmpty() ? List.of(2) : f.nproc();
        if (nproc.stream().anyMatch(n -> n < 1)) {
            throw CctkException.usage("--nproc needs world sizes of at least 1, e.g. --nproc 2,4.");
        }
        if (nproc.stream().distinct().count() < nproc.size()) {
            throw CctkException.usage("--nproc: each world size once, found " + nproc.stream().map(String::valueOf)
                    .collect(java.util.stream.Collectors.joining(",")) + ".");
        }
        final String backend = f.backend() == null ? "tcp" : f.backend();
        if (!BACKENDS.contains(backend)) {
            throw CctkException.usage("--backend: unknown backend '" + backend + "'; without SPEC it is tcp, tcp-flat"
                + " or nccl (a library under another name needs a spec's nccl.backend_name).");
        }
        final List<CollectiveType> colls = named("--collectives", f.collectives(), CollectiveType::bySpecName,
            Arrays.stream(CollectiveType.values()).map(CollectiveType::specName).toList(),
            List.of(CollectiveType.values()));
        final List<DType> types = named("--dtypes", f.dtypes(), DType::bySpecName,
            Arrays.stream(DType.values()).map(DType::specName).toList(), List.of(DType.FLOAT32));
        final List<ReduceOp> ops = named("--ops", f.ops(), ReduceOp::bySpecName,
            Arrays.stream(ReduceOp.values()).map(ReduceOp::specName).toList(), List.of(ReduceOp.SUM));
        final List<MessageSize> messageSizes = new ArrayList<>();
        for (final String s : f.sizes() == null || f.sizes().isEmpty() ? List.<String>of() : f.sizes()) {
            final MessageSize m = size(s);
            if (messageSizes.contains(m)) {
                throw CctkException.usage("--sizes: each size once; '" + s.trim() + "' is " + m.specText()
                        + ", already listed.");
            }
            messageSizes.add(m);
        }
        final Benchmark b = new Benchmark(List.of(backend), List.copyOf(nproc), colls,
            messageSizes.isEmpty() ? List.of(Benchmark.DEFAULT_SIZE) : messageSizes, types, ops,
            count("--warmup", f.warmup(), 0, Benchmark.DEFAULT_WARMUP),
            count("--iters", f.iters(), 1, Benchmark.DEFAULT_ITERS),
            count("--check-iters", f.checkIters(), 0, Benchmark.DEFAULT_CHECK_ITERS), inPlace(f.inPlace()), 0,
            new Benchmark.Imbalance(4.0, null), Benchmark.DEFAULT_TIMEOUT_SECONDS,
            Benchmark.DEFAULT_JIT_WARMUP_SECONDS, count("--repeats", f.repeats(), 1, Benchmark.DEFAULT_REPEATS),
            f.retime() == null || f.retime(), f.windowMillis() == null ? Benchmark.DEFAULT_WINDOW_MILLIS
            : count("--window-ms", f.windowMillis(), 0, 0), timeAcrossRanks(f.timeAcrossRanks()));
        final Cluster local = new Cluster("local", null, null, null, null, null, List.of(), List.of(), null, "java",
            null);
        final int ranks = Collections.max(nproc);
        final Resources resources = new Resources(1, ranks, backend.equals("nccl") ? ranks : 0, 1, "none", "block",
            List.of());
        final String out = f.output() == null ? "results/" + JOB_NAME : f.output().toString();
        if (out.chars().anyMatch(Character::isISOControl)) {
            throw CctkException.usage("-o: the directory '" + Printable.of(out) + "' holds a control character (a"
                    + " spec's output_dir may not); choose another.");
        }
        return new JobSpec(Path.of("cctk-run-flags.yaml"), new Job(JOB_NAME, out, "00:30:00"), local, resources,
            new LinkedHashMap<>(), new LinkedHashMap<>(), b, List.of());
    }

    private static <T> List<T> named(final String flag, final List<String> names, final Function<String, T> byName,
                                     final List<String> known, final List<T> fallback) {
        if (names == null || names.isEmpty() || names.equals(List.of("all"))) {
            return fallback;
        }
        final List<T> out = new ArrayList<>();
        for (final String n : names) {
            final T t = byName.apply(n.trim());
            if (t == null) {
                throw CctkException.usage(flag + ": unknown name '" + n + "'; known: " + String.join(", ", known)
                    + ".");
            }
            if (!out.contains(t)) {
                out.add(t);
            }
        }
        return List.copyOf(out);
    }

    private static int count(final String flag, final Integer value, final int min, final int fallback) {
        if (value == null) {
            return fallback;
        }
        if (value < min || value > 1_000_000) {
            throw CctkException.usage(flag + ": expected " + min + " to 1000000, found " + value + ".");
        }
        return value;
    }

    private static Benchmark.TimeAcrossRanks timeAcrossRanks(final String text) {
        if (text == null) {
            return Benchmark.TimeAcrossRanks.MAX;
        }
        final Benchmark.TimeAcrossRanks t = Benchmark.TimeAcrossRanks.bySpecName(text.trim().toLowerCase(Locale.ROOT));
        if (t == null) {
            throw CctkException.usage("--time-across-ranks: expected max or mean, found '" + Printable.of(text) + "'.");
        }
        return t;
    }

    private static Benchmark.InPlace inPlace(final String text) {
        if (text == null) {
            return Benchmark.InPlace.BOTH;
        }
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "both" -> Benchmark.InPlace.BOTH;
            case "true", "yes", "only" -> Benchmark.InPlace.IN_PLACE;
            case "false", "no" -> Benchmark.InPlace.OUT_OF_PLACE;
            default -> throw CctkException.usage("--in-place: expected both, true or false, found '" + text + "'.");
        };
    }

    /** What the ranks get of the spec's environment; nccl.debug's log directory is made first, as the script does. */
    public static Map<String, String> environment(final JobSpec job) {
        final Map<String, String> env = new LinkedHashMap<>();
        for (final JobEnvironment.Variable v : JobEnvironment.of(job)) {
            env.put(v.name(), v.value());
        }
        if (!JobEnvironment.ncclDebug(job).isEmpty()) {
            try {
                OwnerFiles.directory(Path.of(JobEnvironment.ncclDebugDir(job)));
            } catch (final IOException e) {
                throw CctkException.environment("cannot create nccl.debug's log directory "
                        + JobEnvironment.ncclDebugDir(job) + ": " + e.getMessage(), e);
            }
        }
        return env;
    }

    /** {@code 4MiB}, {@code 512KiB}, {@code 64B} count bytes; a bare number counts elements, as in specs. */
    static MessageSize size(final String text) {
        try {
            return Sizes.parse(text.trim());
        } catch (final IllegalArgumentException e) {
            throw CctkException.usage("--sizes: expected " + e.getMessage() + ", found '" + text + "'.");
        }
    }
}
