package cctk.comm;

import cctk.CctkException;

/**
 * The arguments of an alltoallv, checked in one place for every backend (tcp, shared memory, hierarchical, nccl)
 * before any of them moves a byte: four arrays of one entry per rank, no negative count or displacement, no block
 * whose end overflows, and the block a rank sends itself as long as the one it expects from itself. Whether the
 * blocks fit the caller's buffers is each backend's own check, on its own buffer type.
 * <b>Note:</b> threadsafe (no state); allocation-free unless it refuses.
 */
public final class AllToAllvArgs {

    private AllToAllvArgs() {
    }

    /**
     * Refuses arguments that do not fit a group of {@code size} where rank {@code rank} calls, as a usage error
     * naming the rank and the peer.
     */
    public static void check(final int rank, final int size, final long[] sendCounts, final long[] sendDispls,
                             final long[] recvCounts, final long[] recvDispls) {
        if (sendCounts.length != size || sendDispls.length != size || recvCounts.length != size
                || recvDispls.length != size) {
            throw CctkException.usage("alltoallv needs " + size + " counts and displacements per direction.");
        }
        for (int p = 0; p < size; p++) {
            if (bad(sendCounts[p], sendDispls[p]) || bad(recvCounts[p], recvDispls[p])) {
                throw CctkException.usage("alltoallv on rank " + rank + ": the block for rank " + p + " has a negative"
                        + " or overflowing count or displacement (send " + sendCounts[p] + " at " + sendDispls[p]
                        + ", receive " + recvCounts[p] + " at " + recvDispls[p] + ").");
            }
        }
        if (sendCounts[rank] != recvCounts[rank]) {
            throw CctkException.usage("alltoallv on rank " + rank + " sends " + sendCounts[rank]
                    + " elements to itself but expects " + recvCounts[rank] + ".");
        }
    }

    /** A block whose count or displacement is negative, or whose end does not fit a long. */
    private static boolean bad(final long count, final long displ) {
        return count < 0 || displ < 0 || count > Long.MAX_VALUE - displ;
    }

    /** Elements from the start of a buffer to the end of its last block (arguments {@link #check}ed). */
    public static long extent(final long[] counts, final long[] displs) {
        long end = 0;
        for (int p = 0; p < counts.length; p++) {
            end = Math.max(end, counts[p] + displs[p]);
        }
        return end;
    }
}
