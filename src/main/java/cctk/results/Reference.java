package cctk.results;

/**
 * An expected bus bandwidth a cluster must reach, for {@code cctk report} and the end of a run to judge:
 * PASS when the median busbw of the measured sizes within [minBytes, maxBytes] (the large-message plateau the
 * reference names) is at least {@code tolerance × busBwGbps}. Names are the spec's (the spec checks them).
 *
 * @param collective the collective judged, by its spec name ({@code all_reduce})
 * @param backend    the backend it applies to, or null for every backend
 * @param dtype      the element type it applies to by spec name, or null for every type
 * @param minBytes   smallest size of the range, bytes
 * @param maxBytes   largest size of the range, bytes
 * @param busBwGbps  the expected busbw, GB/s (1e9 B/s)
 * @param tolerance  the fraction of {@code busBwGbps} that passes, in (0, 1]; default 0.9 as nccl-tests' min-bw
 */
public record Reference(String collective, String backend, String dtype, long minBytes, long maxBytes,
                        double busBwGbps, double tolerance) {

    /** The tolerance when a reference names none (nccl-tests judges at 0.9 × its minimum bandwidth). */
    public static final double DEFAULT_TOLERANCE = 0.9;

    /** The busbw at or above which the plateau passes. */
    public double threshold() {
        return busBwGbps * tolerance;
    }

    /** One line naming the reference, e.g. {@code all_reduce nccl float32 1GiB-8GiB busbw >= 0.9 x 80 GB/s}. */
    public String describe() {
        return collective + (backend == null ? "" : " " + backend) + (dtype == null ? "" : " " + dtype) + " "
            + Numbers.specSize(minBytes) + "-" + Numbers.specSize(maxBytes) + " busbw >= " + tolerance + " x "
            + busBwGbps + " GB/s";
    }
}
