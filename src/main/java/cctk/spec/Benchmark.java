package cctk.spec;

import cctk.comm.CollectiveType;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import java.util.List;

/**
 * What to measure. Every list is non-empty and in spec order.
 *
 * @param backends       backend names: {@code tcp}, {@code nccl}
 * @param taskCounts     world sizes to run in turn (one srun step each); each ≤ the allocation's tasks
 * @param collectives    collectives to run
 * @param sizes          message sizes (a list, or a min/max/factor sweep already expanded)
 * @param dtypes         element types
 * @param ops            reduce operators, for the collectives that reduce
 * @param warmupIters    untimed iterations before timing
 * @param iters          timed iterations per size
 * @param checkIters     separate iterations whose results are checked (0 = no check)
 * @param inPlace        which buffer layouts to run
 * @param root           root rank of broadcast and reduce
 * @param alltoallv      how imbalanced all-to-all counts are made
 * @param timeoutSeconds deadline for every wait on a peer
 * @param jitWarmupSeconds how long a JVM rank may warm its JIT before the sweep (0: not at all)
 * @param repeats        separate timed loops per point, interleaved with the other points of its size; a row
 *                       reports the median one and the spread between them
 * @param retime         true: a timed loop during which a JIT compile or a collection ran on some rank is timed again
 *                       (up to 3 more times); false: raw measurement, every first loop kept
 * @param windowMillis   the shortest a timed loop lasts: a loop of {@code iters} quicker calls runs more of them, up to
 *                       {@link #MAX_WINDOW_FACTOR} x iters (0: exactly iters, as nccl-tests)
 * @param timeAcrossRanks how a loop's time is made of the ranks' times: each rank's mean per call, then the max over
 *                       ranks (the default) or the mean over ranks (nccl-tests' default)
 */
public record Benchmark(List<String> backends, List<Integer> taskCounts, List<CollectiveType> collectives,
                        List<MessageSize> sizes, List<DType> dtypes, List<ReduceOp> ops, int warmupIters,
                        int iters, int checkIters, InPlace inPlace, int root, Imbalance alltoallv,
                        int timeoutSeconds, int jitWarmupSeconds, int repeats, boolean retime, int windowMillis,
                        TimeAcrossRanks timeAcrossRanks) {

    /** A benchmark whose time across ranks is the max ({@link TimeAcrossRanks#MAX}, the default). */
    public Benchmark(final List<String> backends, final List<Integer> taskCounts,
                     final List<CollectiveType> collectives, final List<MessageSize> sizes, final List<DType> dtypes,
                     final List<ReduceOp> ops, final int warmupIters, final int iters, final int checkIters,
                     final InPlace inPlace, final int root, final Imbalance alltoallv, final int timeoutSeconds,
                     final int jitWarmupSeconds, final int repeats, final boolean retime, final int windowMillis) {
        this(backends, taskCounts, collectives, sizes, dtypes, ops, warmupIters, iters, checkIters, inPlace, root,
            alltoallv, timeoutSeconds, jitWarmupSeconds, repeats, retime, windowMillis, TimeAcrossRanks.MAX);
    }

    /** Repeats per point when the spec names none: the median of three stands against one disturbed loop. */
    public static final int DEFAULT_REPEATS = 3;

    /**
     * The shortest timed loop when the spec names none: a 20-iteration loop of 25 us calls (1 MiB on shared memory)
     * lasts 0.5 ms, and one scheduler hiccup in it moves its mean several-fold.
     */
    public static final int DEFAULT_WINDOW_MILLIS = 10;
    /** A loop stretched to its window runs at most this many times iters. */
    public static final int MAX_WINDOW_FACTOR = 20;

    /** A benchmark with the default repeats and re-timing, and loops of exactly {@code iters} (no window). */
    public Benchmark(final List<String> backends, final List<Integer> taskCounts,
                     final List<CollectiveType> collectives, final List<MessageSize> sizes, final List<DType> dtypes,
                     final List<ReduceOp> ops, final int warmupIters, final int iters, final int checkIters,
                     final InPlace inPlace, final int root, final Imbalance alltoallv, final int timeoutSeconds,
                     final int jitWarmupSeconds) {
        this(backends, taskCounts, collectives, sizes, dtypes, ops, warmupIters, iters, checkIters, inPlace, root,
            alltoallv, timeoutSeconds, jitWarmupSeconds, DEFAULT_REPEATS, true, 0);
    }

    /** The same benchmark with {@code n} repeats and re-timing on or off. */
    public Benchmark withRepeats(final int n, final boolean retimeLoops) {
        return new Benchmark(backends, taskCounts, collectives, sizes, dtypes, ops, warmupIters, iters, checkIters,
            inPlace, root, alltoallv, timeoutSeconds, jitWarmupSeconds, n, retimeLoops, windowMillis, timeAcrossRanks);
    }

    /** The same benchmark with timed loops of at least {@code millis} (0: exactly iters). */
    public Benchmark withWindow(final int millis) {
        return new Benchmark(backends, taskCounts, collectives, sizes, dtypes, ops, warmupIters, iters, checkIters,
            inPlace, root, alltoallv, timeoutSeconds, jitWarmupSeconds, repeats, retime, millis, timeAcrossRanks);
    }

    /** The same benchmark with its time across ranks made by {@code t}. */
    public Benchmark withTimeAcrossRanks(final TimeAcrossRanks t) {
        return new Benchmark(backends, taskCounts, collectives, sizes, dtypes, ops, warmupIters, iters, checkIters,
            inPlace, root, alltoallv, timeoutSeconds, jitWarmupSeconds, repeats, retime, windowMillis, t);
    }

    /** The most iterations a timed loop runs. */
    public int maxLoopIters() {
        return windowMillis > 0 ? Math.max(1, iters) * MAX_WINDOW_FACTOR : Math.max(1, iters);
    }

    /** Seconds a rank may spend warming its JIT before the sweep, unless the spec says otherwise. */
    public static final int DEFAULT_JIT_WARMUP_SECONDS = 10;
    /** Untimed iterations per measurement when the spec names none. */
    public static final int DEFAULT_WARMUP = 5;
    /** Timed iterations per measurement when the spec names none. */
    public static final int DEFAULT_ITERS = 20;
    /** Separately checked iterations per measurement when the spec names none. */
    public static final int DEFAULT_CHECK_ITERS = 1;
    /** Deadline of every wait on a peer, in seconds, when the spec names none. */
    public static final int DEFAULT_TIMEOUT_SECONDS = 120;
    /** The size measured when the spec names none: 1 MiB. */
    public static final MessageSize DEFAULT_SIZE = new MessageSize(1L << 20, false);

    /**
     * How a timed loop's time is made of the ranks' own: every rank times its loop and takes its mean per call; the
     * loop's time is then the largest of those means ({@link #MAX}: the slowest rank, what a job waits for; cctk's
     * default) or their mean ({@link #MEAN}: nccl-tests' default, its {@code -a 1}; nccl-tests' src/common.cu sums
     * the ranks' times and divides by their number). The spec's {@code benchmark.time_across_ranks}; every result
     * file names the one a figure was made with.
     */
    public enum TimeAcrossRanks {
        MAX, MEAN;

        /** The spec's and the result files' name: {@code max}, {@code mean}. */
        public String specName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The one named {@code name} ({@code max} or {@code mean}), or null. */
        public static TimeAcrossRanks bySpecName(final String name) {
            for (final TimeAcrossRanks t : values()) {
                if (t.specName().equals(name)) {
                    return t;
                }
            }
            return null;
        }
    }

    /** Buffer layouts: separate send and receive buffers, one shared buffer, or both. */
    public enum InPlace {
        OUT_OF_PLACE, IN_PLACE, BOTH;

        public boolean runsOutOfPlace() {
            return this != IN_PLACE;
        }

        public boolean runsInPlace() {
            return this != OUT_OF_PLACE;
        }
    }

    /**
     * Per-peer counts of the imbalanced all-to-all.
     *
     * @param spread     max/min ratio of per-peer counts, ≥ 1, when no matrix is given
     * @param matrixFile a whitespace-separated W×W matrix of relative weights, or null
     */
    public record Imbalance(double spread, String matrixFile) {
    }
}
