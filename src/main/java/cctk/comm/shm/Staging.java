package cctk.comm.shm;

import cctk.CctkException;
import cctk.comm.CommBuffer;
import cctk.comm.DType;
import java.nio.ByteBuffer;

/**
 * Shared memory for what cannot be read where it lies: buffers this communicator did not allocate (copied in
 * before a collective and out after it) and send buffers that overlap their receive buffer where peers would read
 * bytes this rank overwrites (in-place all-to-all, send/recv). Two areas (0: send side, 1: receive side), grown on
 * demand; an outgrown area is freed at once (no collective reads it any more when a new one starts).
 * <b>Note:</b> not threadsafe.
 */
final class Staging {

    private final OwnSegments own;
    private final PeerSegments peers;
    private final ShmBuffer[] areas = new ShmBuffer[2];
    private final ByteBuffer[] cursors = new ByteBuffer[2];

    Staging(final OwnSegments own, final PeerSegments peers) {
        this.own = own;
        this.peers = peers;
    }

    /** Area {@code which} with room for at least {@code bytes} (allocates only to grow). */
    ShmBuffer area(final int bytes, final int which) {
        final ShmBuffer a = areas[which];
        if (a != null && a.length >= bytes) {
            return a;
        }
        final long grown = Math.min(OwnSegments.MAX_BYTES, Math.max(bytes, a == null ? 0 : 2L * a.length));
        if (a != null) {
            areas[which] = null;
            cursors[which] = null;
            own.free(a);
        }
        areas[which] = own.allocate(grown, peers);
        cursors[which] = areas[which].region.data.duplicate();
        return areas[which];
    }

    /** The first {@code bytes} of a foreign buffer, copied into area {@code which}. */
    ShmBuffer copyIn(final CommBuffer foreign, final int bytes, final int which) {
        final ShmBuffer a = area(bytes, which);
        final ByteBuffer c = cursors[which];
        c.limit(bytes).position(0);
        foreign.download(0, c);
        return a;
    }

    /** {@code bytes} of {@code s} copied into area {@code which}. */
    ShmBuffer copyOf(final ShmBuffer s, final int bytes, final int which) {
        final ShmBuffer a = area(bytes, which);
        a.region.copyFrom(0, s.region, s.offset, bytes);
        return a;
    }

    /** Copies {@code len} bytes at {@code off} of area {@code which} out to the same place of {@code foreign}. */
    void copyOut(final int which, final CommBuffer foreign, final int off, final int len) {
        if (len == 0) {
            return;
        }
        final ByteBuffer c = cursors[which];
        c.limit(off + len).position(off);
        foreign.upload(c, off);
    }

    /** A buffer to read: this communicator's own, or a foreign one copied into staging. */
    ShmBuffer in(final CommBuffer b, final int bytes, final DType type) {
        final ShmBuffer ours = mine(b, bytes, type);
        return ours != null ? ours : copyIn(b, bytes, 0);
    }

    /** A buffer to write: this communicator's own, or staging to be copied out by {@link #flush}. */
    ShmBuffer out(final CommBuffer b, final int bytes, final DType type) {
        final ShmBuffer ours = mine(b, bytes, type);
        return ours != null ? ours : area(bytes, 1);
    }

    void flush(final CommBuffer b, final ShmBuffer used, final int off, final int len) {
        if (used != b) {
            copyOut(1, b, off, len);
        }
    }

    private ShmBuffer mine(final CommBuffer b, final int bytes, final DType type) {
        if (b == null) {
            throw CctkException.usage("a collective of the shm backend got no buffer.");
        }
        if (b.bytes() < bytes) {
            throw CctkException.usage("a buffer of " + b.bytes() + " bytes is too small for " + bytes + " bytes of "
                    + type.specName() + ".");
        }
        if (!(b instanceof ShmBuffer s) || s.owner != own) {
            return null;
        }
        if (!own.live(s)) {
            throw CctkException.usage("a buffer of " + s.length + " bytes was used after it was freed.");
        }
        if (s.offset % type.bytes() != 0) {
            throw CctkException.usage("a " + type.specName() + " buffer must start at a multiple of " + type.bytes()
                    + " bytes; this one starts at " + s.offset + ".");
        }
        return s;
    }
}
