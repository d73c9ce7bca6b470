package cctk.bench;

import cctk.coll.Case;
import cctk.coll.Collective;
import cctk.coll.PatternStream;
import cctk.comm.CommBuffer;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Moves pattern data between a collective and device or host buffers: fills inputs and counts wrong elements a
 * tile at a time through {@link PatternStream}, and poisons outputs through one 1 MiB chunk. Never on the timed
 * path.
 * <b>Note:</b> not threadsafe.
 */
final class BufferData {

    /** A multiple of every element size. */
    private static final int CHUNK = 1 << 20;
    /** Byte written over outputs before a check: not an integer in any floating type, 165/-91 in 8 bits. */
    private static final byte POISON = (byte) 0xA5;

    private final PatternStream stream = new PatternStream();
    /** Grows to the largest buffer poisoned, at most {@link #CHUNK}. */
    private ByteBuffer poisonView = ByteBuffer.wrap(new byte[0]);

    /** Writes the collective's input for {@code c} into {@code send}. */
    void fill(final Collective coll, final Case c, final CommBuffer send) {
        stream.fill(coll, c, send);
    }

    /** Overwrites all of {@code buf}, so a call that writes nothing is caught. */
    void poison(final CommBuffer buf) {
        if (poisonView.capacity() < Math.min(CHUNK, buf.bytes())) {
            final byte[] poison = new byte[(int) Math.min(CHUNK, Math.max(buf.bytes(), 2L * poisonView.capacity()))];
            Arrays.fill(poison, POISON);
            poisonView = ByteBuffer.wrap(poison);
        }
        for (long at = 0; at < buf.bytes(); at += CHUNK) {
            final int len = (int) Math.min(CHUNK, buf.bytes() - at);
            poisonView.limit(len).position(0);
            buf.upload(poisonView, at);
        }
    }

    /** Elements of {@code recv} that differ from the collective's expected values by more than its tolerance. */
    long countWrong(final Collective coll, final Case c, final CommBuffer recv) {
        return stream.countWrong(coll, c, recv);
    }
}
