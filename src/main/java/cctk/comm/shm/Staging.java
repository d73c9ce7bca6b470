package cctk.comm.shm;

import cctk.CctkException;
import cctk.comm.CommBuffer;
import cctk.comm.DType;
import cctk.comm.HostBuffer;

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
    private final HostBuffer[] areas = new HostBuffer[2];

    Staging(final OwnSegments own, final PeerSegments peers) {
        this.own = own;
        this.peers = peers;
    }

    /** Area {@code which} with room for at least {@code bytes} (allocates only to grow). */
    HostBuffer area(final int bytes, final int which) {
        final HostBuffer a = areas[which];
        if (a != null && a.length >= bytes) {
            return a;
        }
        final long grown = Math.min(OwnSegments.MAX_BYTES, Math.max(bytes, a == null ? 0 : 2L * a.length));
        if (a != null) {
            areas[which] = null;
            own.free(a, OwnSegments.Segment.of(a));
        }
        areas[which] = own.allocate(grown, peers);
        return areas[which];
    }

    /** The first {@code bytes} of a foreign buffer, copied into area {@code which}. */
    HostBuffer copyIn(final CommBuffer foreign, final int bytes, final int which) {
        final HostBuffer a = area(bytes, which);
        a.copyFrom(foreign, 0, 0, bytes);
        return a;
    }

    /** {@code bytes} of {@code s} copied into area {@code which}. */
    HostBuffer copyOf(final HostBuffer s, final int bytes, final int which) {
        final HostBuffer a = area(bytes, which);
        a.memory.copyFrom(0, s.memory, s.offset, bytes);
        return a;
    }

    /** Copies {@code len} bytes at {@code off} of area {@code which} out to the same place of {@code foreign}. */
    void copyOut(final int which, final CommBuffer foreign, final int off, final int len) {
        areas[which].copyTo(off, foreign, off, len);
    }

    /** A buffer to read: this communicator's own, or a foreign one copied into staging. */
    HostBuffer in(final CommBuffer b, final int bytes, final DType type) {
        final HostBuffer ours = mine(b, bytes, type);
        return ours != null ? ours : copyIn(b, bytes, 0);
    }

    /** A buffer to write: this communicator's own, or staging to be copied out by {@link #flush}. */
    HostBuffer out(final CommBuffer b, final int bytes, final DType type) {
        final HostBuffer ours = mine(b, bytes, type);
        return ours != null ? ours : area(bytes, 1);
    }

    void flush(final CommBuffer b, final HostBuffer used, final int off, final int len) {
        if (used != b) {
            copyOut(1, b, off, len);
        }
    }

    private HostBuffer mine(final CommBuffer b, final int bytes, final DType type) {
        if (b == null) {
            throw CctkException.usage("a collective of the shm backend got no buffer.");
        }
        if (b.bytes() < bytes) {
            throw CctkException.usage("a buffer of " + b.bytes() + " bytes is too small for " + bytes + " bytes of "
                    + type.specName() + ".");
        }
        final OwnSegments.Segment segment = own.segment(b);
        if (segment == null) {
            return null;
        }
        final HostBuffer s = (HostBuffer) b;
        if (!own.live(segment)) {
            throw CctkException.usage("a buffer of " + s.length + " bytes was used after it was freed.");
        }
        if (s.offset % type.bytes() != 0) {
            throw CctkException.usage("a " + type.specName() + " buffer must start at a multiple of " + type.bytes()
                    + " bytes; this one starts at " + s.offset + ".");
        }
        return s;
    }
}
