package cctk.coll;

/**
 * Walks a buffer's {@link Blocks} from element 0 as runs that are contiguous in a {@link Tape}: each run stays in
 * one tile of one block. Byte counts are whole elements.
 * <b>Note:</b> not threadsafe.
 */
final class TileCursor {

    private Blocks blocks;
    private Period period;
    private int size;
    private int block;
    /** Element of the current block. */
    private long k;

    /** Starts at element 0 of {@code b}. */
    void start(final Blocks b, final Period p, final int elementBytes) {
        blocks = b;
        period = p;
        size = elementBytes;
        block = 0;
        k = 0;
        skipEmpty();
    }

    /** Bytes left in the current run: to the end of its tile or its block, whichever comes first. */
    int runBytes() {
        final long inTile = period.length() - k % period.length();
        return (int) (Math.min(inTile, blocks.length(block) - k) * size);
    }

    /** Where the current run's values start in the tape, in bytes. */
    int tapeOffset() {
        return period.phase(blocks.origin(block), k) * size;
    }

    /** Moves on by {@code bytes} (whole elements, at most {@link #runBytes}). */
    void advance(final int bytes) {
        k += bytes / size;
        if (k == blocks.length(block)) {
            block++;
            k = 0;
            skipEmpty();
        }
    }

    private void skipEmpty() {
        while (block < blocks.count() && blocks.length(block) == 0) {
            block++;
        }
    }
}
