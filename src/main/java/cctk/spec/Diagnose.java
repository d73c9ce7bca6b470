package cctk.spec;

/**
 * The {@code diagnose:} section: a job that looks for the slow node, NIC, pair or rank instead of running the
 * benchmark sweep ({@code cctk diagnose}). All its measurements move float32 sums of one message size.
 *
 * @param size      the message of every node and pair measurement
 * @param warmup    untimed iterations before each measurement
 * @param iters     timed iterations per measurement (fewer when one iteration would take longer than
 *                  {@code limitSeconds / iters})
 * @param threshold a figure below {@code threshold} × its peers' median makes a suspect, in (0, 1)
 * @param confirm   whether a suspect must be slow again when measured a second time to be named
 * @param limitSeconds how long one measurement may take at most; a badly degraded link gets fewer iterations
 * @param windowMillis the shortest the timed iterations of one measurement last: more iterations than {@code iters}
 *                  when they are quick, so that a burst of other work on a host covers a few of them only
 */
public record Diagnose(MessageSize size, int warmup, int iters, double threshold, boolean confirm,
                       int limitSeconds, int windowMillis) {

    /** Message size when the section names none: 1 MiB. */
    public static final MessageSize DEFAULT_SIZE = new MessageSize(1L << 20, false);
    /** Untimed iterations per measurement by default. */
    public static final int DEFAULT_WARMUP = 3;
    /** Timed iterations per measurement by default. */
    public static final int DEFAULT_ITERS = 10;
    /** A suspect is below this fraction of its peers' median by default. */
    public static final double DEFAULT_THRESHOLD = 0.8;
    /** Seconds one measurement may take by default. */
    public static final int DEFAULT_LIMIT_SECONDS = 10;
    /** The shortest measurement window by default, ms. */
    public static final int DEFAULT_WINDOW_MILLIS = 200;

    /** The section's defaults, as {@code diagnose: {}} gives them. */
    public static final Diagnose DEFAULT = new Diagnose(DEFAULT_SIZE, DEFAULT_WARMUP, DEFAULT_ITERS,
            DEFAULT_THRESHOLD, true, DEFAULT_LIMIT_SECONDS, DEFAULT_WINDOW_MILLIS);

    /** Bytes of the message. */
    public long bytes() {
        return size.bytes(cctk.comm.DType.FLOAT32);
    }
}
