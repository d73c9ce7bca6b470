package cctk.bench;

import cctk.coll.Case;
import cctk.coll.Collective;
import cctk.coll.Elements;
import cctk.comm.CommBuffer;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Moves pattern data between a collective and device or host buffers through one 1 MiB staging
 * buffer: fills inputs, poisons outputs, counts wrong elements. Never on the timed path.
 * <b>Note:</b> not threadsafe.
 */
final class BufferData {

    /** A multiple of every element size. */
    private static final int CHUNK = 1 << 20;
    /** Byte written over outputs before a check: not an integer in any floating type, 165/-91 in 8 bits. */
    private static final byte POISON = (byte) 0xA5;

    private final ByteBuffer host = ByteBuffer.allocate(CHUNK).order(Elements.ORDER);
    private final byte[] poison = new byte[CHUNK];

    BufferData() {
        Arrays.fill(poison, POISON);
    }

    /** Writes the collective's input for {@code c} into {@code send}. */
    void fill(final Collective coll, final Case c, final CommBuffer send) {
        final int size = c.type().bytes();
        final long n = c.layout().sendBytes() / size;
        final int per = CHUNK / size;
        for (long start = 0; start < n; start += per) {
            final int len = (int) Math.min(per, n - start);
            for (int j = 0; j < len; j++) {
                Elements.put(host, c.type(), j, coll.input(c, start + j));
            }
            host.position(0).limit(len * size);
            send.upload(host, start * size);
            host.clear();
        }
    }

    /** Overwrites all of {@code buf}, so a call that writes nothing is caught. */
    void poison(final CommBuffer buf) {
        for (long at = 0; at < buf.bytes(); at += CHUNK) {
            final int len = (int) Math.min(CHUNK, buf.bytes() - at);
            buf.upload(ByteBuffer.wrap(poison, 0, len), at);
        }
    }

    /** Elements of {@code recv} that differ from the collective's expected values by more than its tolerance. */
    long countWrong(final Collective coll, final Case c, final CommBuffer recv) {
        final int size = c.type().bytes();
        final long n = coll.checkedElements(c);
        final int per = CHUNK / size;
        long wrong = 0;
        for (long start = 0; start < n; start += per) {
            final int len = (int) Math.min(per, n - start);
            host.position(0).limit(len * size);
            recv.download(start * size, host);
            for (int j = 0; j < len; j++) {
                final double got = Elements.get(host, c.type(), j);
                final double want = coll.expected(c, start + j);
                if (!(Math.abs(got - want) <= coll.tolerance(c, want))) {
                    wrong++;
                }
            }
            host.clear();
        }
        return wrong;
    }
}
