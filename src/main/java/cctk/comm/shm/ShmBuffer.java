package cctk.comm.shm;

import cctk.comm.CommBuffer;
import cctk.comm.HostCopies;
import java.nio.ByteBuffer;

/**
 * Host memory in a shared-memory segment of its communicator (one segment per allocation): every local rank maps
 * it, so peers read it where it lies. Slices share the segment. At most 2 GiB - 1 page. The segment lives until
 * {@code Communicator.free} (or the communicator's close) frees it; after that every use of the buffer fails.
 * <b>Note:</b> not threadsafe.
 */
public final class ShmBuffer implements CommBuffer {

    /** The segment table that made it: buffers of another communicator are not this one's. */
    final OwnSegments owner;
    final Region region;
    final int slot;
    final long gen;
    final int offset;
    final int length;

    ShmBuffer(final OwnSegments owner, final Region region, final int slot, final long gen, final int offset,
              final int length) {
        this.owner = owner;
        this.region = region;
        this.slot = slot;
        this.gen = gen;
        this.offset = offset;
        this.length = length;
    }

    @Override
    public long bytes() {
        return length;
    }

    @Override
    public CommBuffer slice(final long off, final long len) {
        if (off < 0 || len < 0 || off + len > length) {
            throw new IndexOutOfBoundsException("slice [" + off + ", " + (off + len) + ") of " + length + " bytes");
        }
        return new ShmBuffer(owner, region, slot, gen, offset + (int) off, (int) len);
    }

    /** Throws when the segment was freed: its memory is unmapped. */
    void live() {
        if (region.freed()) {
            throw new IllegalStateException("a shm buffer of " + length + " bytes was used after it was freed");
        }
    }

    @Override
    public void upload(final ByteBuffer src, final long off) {
        live();
        HostCopies.upload(region.data, offset, length, src, off);
    }

    @Override
    public void download(final long off, final ByteBuffer dst) {
        live();
        HostCopies.download(region.data, offset, length, off, dst);
    }

    /** The segment's payload, for a backend that runs on it in place (the leaders' tcp); fails once freed. */
    @Override
    public ByteBuffer hostMemory() {
        live();
        return region.data;
    }

    @Override
    public long hostOffset() {
        return offset;
    }

    /** Whether this and {@code other} share any byte. */
    boolean overlaps(final ShmBuffer other) {
        return region == other.region && offset < other.offset + other.length && other.offset < offset + length;
    }

    @Override
    public String toString() {
        return "shm buffer of " + length + " bytes (slot " + slot + ")";
    }
}
