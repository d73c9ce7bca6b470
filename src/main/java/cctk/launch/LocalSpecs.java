package cctk.launch;

import cctk.CctkException;
import cctk.OwnerFiles;
import cctk.coll.CollectiveType;
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
import java.util.Map;

/** A job spec for {@code cctk run} without a file: the local defaults, changed by flags. */
public final class LocalSpecs {

    /** Collectives run when none are named. */
    public static final List<CollectiveType> DEFAULT_COLLECTIVES = List.of(CollectiveType.ALL_REDUCE,
            CollectiveType.ALL_GATHER, CollectiveType.REDUCE_SCATTER, CollectiveType.BROADCAST,
            CollectiveType.ALLTOALL);
    /** Sizes run when none are named. */
    public static final List<String> DEFAULT_SIZES = List.of("1KiB", "64KiB", "1MiB");
    /** Deadline of every wait on a peer. */
    public static final int DEFAULT_TIMEOUT_SECONDS = 60;

    private LocalSpecs() {
    }

    /** The spec for world sizes {@code nproc}, backend, collectives (spec names) and sizes ({@code 4MiB}, 1024). */
    public static JobSpec fromFlags(final List<Integer> nproc, final String backend, final List<String> collectives,
                                    final List<String> sizes) {
        if (nproc.isEmpty() || nproc.stream().anyMatch(n -> n < 1)) {
            throw CctkException.usage("--nproc needs world sizes of at least 1, e.g. --nproc 2,4.");
        }
        final List<CollectiveType> colls = new ArrayList<>();
        for (final String c : collectives) {
            final CollectiveType type = CollectiveType.bySpecName(c);
            if (type == null) {
                throw CctkException.usage("--collectives: unknown collective '" + c + "'; known: "
                        + Arrays.stream(CollectiveType.values()).map(CollectiveType::specName).toList() + ".");
            }
            colls.add(type);
        }
        final List<MessageSize> messageSizes = new ArrayList<>();
        for (final String s : sizes.isEmpty() ? DEFAULT_SIZES : sizes) {
            messageSizes.add(size(s));
        }
        final Benchmark b = new Benchmark(List.of(backend), List.copyOf(nproc),
                colls.isEmpty() ? DEFAULT_COLLECTIVES : colls, messageSizes, List.of(DType.FLOAT32),
                List.of(ReduceOp.SUM), 5, 20, 1, Benchmark.InPlace.OUT_OF_PLACE, 0,
                new Benchmark.Imbalance(1.0, null), DEFAULT_TIMEOUT_SECONDS, Benchmark.DEFAULT_JIT_WARMUP_SECONDS);
        final Cluster local = new Cluster("local", null, null, null, null, null, List.of(), List.of(), null, "java",
                null);
        final Resources resources = new Resources(1, Collections.max(nproc), 0, 1, "none", "block", List.of());
        return new JobSpec(Path.of("cctk-run-flags.yaml"), new Job("local", "results", "00:30:00"), local,
                resources, new LinkedHashMap<>(), new LinkedHashMap<>(), b, java.util.List.of());
    }

    /** {@code 4MiB}, {@code 512KiB}, {@code 64B} count bytes; a bare number counts elements, as in specs. */
    static MessageSize size(final String text) {
        try {
            return Sizes.parse(text.trim());
        } catch (final IllegalArgumentException e) {
            throw CctkException.usage("--sizes: expected " + e.getMessage() + ", found '" + text + "'.");
        }
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
}
