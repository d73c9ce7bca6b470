package cctk.coll;

import cctk.comm.HostBuffer;

/**
 * Test helper: the bytes of a {@link HostBuffer} (the CPU backends' own buffer), read and corrupted directly by the
 * checks' tests, without a communicator.
 */
final class Bytes {

    private Bytes() {
    }

    /** A fresh buffer of {@code bytes} zero bytes. */
    static HostBuffer allocate(final long bytes) {
        return HostBuffer.allocate(Math.toIntExact(bytes));
    }

    /** Byte {@code at} of {@code b}. */
    static byte get(final HostBuffer b, final long at) {
        return b.memory.base().get(b.offset + (int) at);
    }

    /** Sets byte {@code at} of {@code b}. */
    static void put(final HostBuffer b, final long at, final byte v) {
        b.memory.base().put(b.offset + (int) at, v);
    }

    /** Copies {@code n} bytes of {@code b} from {@code from} to {@code to} (overlap allowed, as memmove). */
    static void move(final HostBuffer b, final long from, final long to, final int n) {
        final byte[] tmp = new byte[n];
        b.memory.base().get(b.offset + (int) from, tmp);
        b.memory.base().put(b.offset + (int) to, tmp);
    }
}
