package cctk.comm.shm;

import cctk.comm.CommBuffer;
import cctk.comm.HostBuffer;

/**
 * The scratch memory of {@link HierarchicalCommunicator}: shared-memory areas of the node's communicator, which
 * the node reduces, gathers and broadcasts through, and on which the node's leader runs the inter-node
 * communicator in place (they are {@link HostBuffer}s, which tcp runs on as they are: no copy between the levels);
 * and a small cache of slices, so that repeating a collective with the same arguments allocates nothing. An
 * outgrown area is freed at once, its cached slices dropped first; {@link #close} frees the rest.
 * <b>Note:</b> not threadsafe.
 */
final class NodeStaging {

    /** Areas: 0 and 1 for every collective, 2 and 3 for all-to-all's exchange between the nodes. */
    static final int AREAS = 4;
    private static final int SLICES = 16;

    private final ShmCommunicator node;
    private final HostBuffer[] shm = new HostBuffer[AREAS];
    private final CommBuffer[] sliceOf = new CommBuffer[SLICES];
    private final long[] sliceAt = new long[SLICES];
    private final long[] sliceLength = new long[SLICES];
    private final CommBuffer[] slices = new CommBuffer[SLICES];
    private int nextSlice;

    /** Areas of {@code node}. */
    NodeStaging(final ShmCommunicator node) {
        this.node = node;
    }

    /** Shared-memory area {@code which} of at least {@code bytes}; grows, never shrinks. */
    HostBuffer shm(final int which, final long bytes) {
        if (shm[which] == null || shm[which].length < bytes) {
            if (shm[which] != null) {
                release(shm[which]);
                shm[which] = null;
            }
            shm[which] = (HostBuffer) node.allocate(Math.max(bytes, 64));
        }
        return shm[which];
    }

    /** Copies {@code len} bytes of area {@code which} at {@code off} into {@code dst} at {@code dstOff}. */
    void out(final int which, final long off, final CommBuffer dst, final long dstOff, final long len) {
        shm[which].copyTo(off, dst, dstOff, len);
    }

    /** Copies {@code len} bytes of {@code src} at {@code srcOff} into area {@code which} at {@code off}. */
    void in(final CommBuffer src, final long srcOff, final int which, final long off, final long len) {
        shm[which].copyFrom(src, srcOff, off, len);
    }

    /** Copies {@code len} bytes of area {@code from} at {@code fromOff} to area {@code to} at {@code toOff}. */
    void copy(final int from, final long fromOff, final int to, final long toOff, final int len) {
        shm[to].memory.copyFrom(shm[to].offset + (int) toOff, shm[from].memory, shm[from].offset + (int) fromOff,
                len);
    }

    /** {@code b.slice(at, length)}, made once per distinct arguments among the last few. */
    CommBuffer slice(final CommBuffer b, final long at, final long length) {
        if (at == 0 && length == b.bytes()) {
            return b;
        }
        for (int i = 0; i < SLICES; i++) {
            if (sliceOf[i] == b && sliceAt[i] == at && sliceLength[i] == length) {
                return slices[i];
            }
        }
        final int i = nextSlice;
        nextSlice = (nextSlice + 1) % SLICES;
        final CommBuffer s = b.slice(at, length);
        sliceOf[i] = b;
        sliceAt[i] = at;
        sliceLength[i] = length;
        slices[i] = s;
        return s;
    }

    /** Drops the cached slices of {@code b} ({@code b} is about to be freed). */
    void forget(final CommBuffer b) {
        for (int i = 0; i < SLICES; i++) {
            if (sliceOf[i] == b) {
                sliceOf[i] = null;
                slices[i] = null;
            }
        }
    }

    private void release(final HostBuffer b) {
        forget(b);
        node.free(b);
    }

    /** Frees every area (the communicator is closing; the users are still open). */
    void close() {
        for (int k = 0; k < AREAS; k++) {
            if (shm[k] != null) {
                release(shm[k]);
                shm[k] = null;
            }
        }
    }
}
