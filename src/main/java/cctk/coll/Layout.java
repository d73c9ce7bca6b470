package cctk.coll;

import cctk.comm.DType;

/**
 * The byte counts of one collective call on one rank, as nccl-tests' getCollByteCount gives them.
 *
 * @param count             the count argument of the call (per-rank or per-peer elements), the {@code count} column
 * @param sizeBytes         S: the bytes in {@code algbw = S / t} and the {@code size} column (same on every rank)
 * @param sendBytes         bytes of the send buffer
 * @param recvBytes         bytes of the receive buffer
 * @param inPlaceSendOffset where send starts in the one in-place buffer
 * @param inPlaceRecvOffset where recv starts in the one in-place buffer
 * @param vector            per-peer counts of a vector collective, or null
 */
public record Layout(long count, long sizeBytes, long sendBytes, long recvBytes, long inPlaceSendOffset,
                     long inPlaceRecvOffset, Vector vector) {

    /** A layout without per-peer counts. */
    public static Layout of(final long count, final long sizeBytes, final long sendBytes, final long recvBytes,
                            final long inPlaceSendOffset, final long inPlaceRecvOffset) {
        return new Layout(count, sizeBytes, sendBytes, recvBytes, inPlaceSendOffset, inPlaceRecvOffset, null);
    }

    /** One buffer of whole elements on every rank, S = its size (all-reduce, broadcast, reduce, send/recv). */
    public static Layout wholeBuffer(final long totalBytes, final DType type) {
        final long count = totalBytes / type.bytes();
        final long bytes = count * type.bytes();
        return of(count, bytes, bytes, bytes, 0, 0);
    }

    /** Bytes of the single buffer an in-place call uses. */
    public long inPlaceBytes() {
        return Math.max(inPlaceSendOffset + sendBytes, inPlaceRecvOffset + recvBytes);
    }

    /**
     * Per-peer counts and displacements in elements (all-to-all-v).
     *
     * @param sendCounts elements to each peer
     * @param sendDispls where each peer's block starts in send
     * @param recvCounts elements from each peer
     * @param recvDispls where each peer's block starts in recv
     */
    public record Vector(long[] sendCounts, long[] sendDispls, long[] recvCounts, long[] recvDispls) {
    }
}
