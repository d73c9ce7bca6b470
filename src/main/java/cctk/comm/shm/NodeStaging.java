package cctk.comm.shm;

import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import java.nio.ByteBuffer;

/**
 * The scratch memory of {@link HierarchicalCommunicator}: shared-memory areas in the node's communicator (what the
 * node reduces, gathers and broadcasts through) and, on the node's leader, areas of the inter-node communicator,
 * which may only run on its own buffers; copies between the two; and a small cache of slices, so that repeating a
 * collective with the same arguments allocates nothing. An outgrown area is freed at once; {@link #close} frees the
 * rest. <b>Note:</b> not threadsafe.
 */
final class NodeStaging {

    private static final int SLICES = 16;

    private final ShmCommunicator node;
    private final Communicator leaders;
    private final ShmBuffer[] shm = new ShmBuffer[3];
    private final ByteBuffer[] cursors = new ByteBuffer[3];
    private final CommBuffer[] net = new CommBuffer[2];
    private final CommBuffer[] sliceOf = new CommBuffer[SLICES];
    private final long[] sliceAt = new long[SLICES];
    private final long[] sliceLength = new long[SLICES];
    private final CommBuffer[] slices = new CommBuffer[SLICES];
    private int nextSlice;

    NodeStaging(final ShmCommunicator node, final Communicator leaders) {
        this.node = node;
        this.leaders = leaders;
    }

    /** Shared-memory area {@code which} (0..2) of at least {@code bytes}; grows, never shrinks. */
    ShmBuffer shm(final int which, final long bytes) {
        if (shm[which] == null || shm[which].length < bytes) {
            if (shm[which] != null) {
                forget(shm[which]);
                node.free(shm[which]);
                shm[which] = null;
            }
            shm[which] = (ShmBuffer) node.allocate(Math.max(bytes, 64));
            cursors[which] = shm[which].region.data.duplicate();
        }
        return shm[which];
    }

    /** Inter-node area {@code which} (0..1) of at least {@code bytes}, on the leader. */
    CommBuffer net(final int which, final long bytes) {
        if (net[which] == null || net[which].bytes() < bytes) {
            if (net[which] != null) {
                forget(net[which]);
                leaders.free(net[which]);
                net[which] = null;
            }
            net[which] = leaders.allocate(Math.max(bytes, 64));
        }
        return net[which];
    }

    /** Copies {@code len} bytes of shared area {@code which} at {@code off} into {@code dst} at {@code dstOff}. */
    void out(final int which, final long off, final CommBuffer dst, final long dstOff, final long len) {
        if (len > 0) {
            final ByteBuffer c = cursors[which];
            c.limit((int) (off + len)).position((int) off);
            dst.upload(c, dstOff);
        }
    }

    /** Copies {@code len} bytes of {@code src} at {@code srcOff} into shared area {@code which} at {@code off}. */
    void in(final CommBuffer src, final long srcOff, final int which, final long off, final long len) {
        if (len > 0) {
            final ByteBuffer c = cursors[which];
            c.limit((int) (off + len)).position((int) off);
            src.download(srcOff, c);
        }
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

    /** Drops the cached slices of {@code b}, which is about to be freed. */
    void forget(final CommBuffer b) {
        for (int i = 0; i < SLICES; i++) {
            if (sliceOf[i] == b) {
                sliceOf[i] = null;
                slices[i] = null;
            }
        }
    }

    /** Frees every area (the communicator is closing; the leaders' communicator is still open). */
    void close() {
        for (int k = 0; k < shm.length; k++) {
            if (shm[k] != null) {
                node.free(shm[k]);
                shm[k] = null;
            }
        }
        for (int k = 0; k < net.length; k++) {
            if (net[k] != null) {
                leaders.free(net[k]);
                net[k] = null;
            }
        }
    }
}
