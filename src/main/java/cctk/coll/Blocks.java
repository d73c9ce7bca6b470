package cctk.coll;

import java.util.function.IntToLongFunction;

/**
 * A buffer (or its checked part) cut into consecutive blocks from element 0, each labelled with its origin: whose
 * data it is, e.g. the sending rank, or the (sender, receiver) pair of an all-to-all block. {@link Period} gives
 * every tile of every origin its own phase, so data in the wrong block shows. Immutable.
 */
public final class Blocks {

    /** No blocks: nothing to fill or check. */
    public static final Blocks NONE = new Blocks(new long[0], new long[0]);

    private final long[] lengths;
    private final long[] origins;
    private final long[] starts;
    private final long total;

    private Blocks(final long[] lengths, final long[] origins) {
        this.lengths = lengths;
        this.origins = origins;
        this.starts = new long[lengths.length];
        long at = 0;
        for (int b = 0; b < lengths.length; b++) {
            starts[b] = at;
            at += lengths[b];
        }
        this.total = at;
    }

    /** One block of {@code length} elements. */
    public static Blocks one(final long length, final long origin) {
        return new Blocks(new long[] {length}, new long[] {origin});
    }

    /** {@code n} blocks of {@code length} elements; block b has origin {@code origin(b)}. */
    public static Blocks repeat(final int n, final long length, final IntToLongFunction origin) {
        final long[] lengths = new long[n];
        java.util.Arrays.fill(lengths, length);
        return of(lengths, origin);
    }

    /** Blocks of the given lengths, back to back; block b has origin {@code origin(b)}. */
    public static Blocks of(final long[] lengths, final IntToLongFunction origin) {
        final long[] origins = new long[lengths.length];
        for (int b = 0; b < lengths.length; b++) {
            origins[b] = origin.applyAsLong(b);
        }
        return new Blocks(lengths.clone(), origins);
    }

    public int count() {
        return lengths.length;
    }

    /** Elements of block {@code b}. */
    public long length(final int b) {
        return lengths[b];
    }

    /** Where block {@code b} starts, in elements. */
    public long start(final int b) {
        return starts[b];
    }

    public long origin(final int b) {
        return origins[b];
    }

    /** Elements of all blocks together. */
    public long total() {
        return total;
    }

    /** The block that holds element {@code index}: the last one that starts at or before it (empty ones share). */
    public int blockOf(final long index) {
        int lo = 0;
        int hi = starts.length - 1;
        while (lo < hi) {
            final int mid = (lo + hi + 1) >>> 1;
            if (starts[mid] <= index) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }
}
