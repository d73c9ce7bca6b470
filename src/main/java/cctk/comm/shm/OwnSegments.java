package cctk.comm.shm;

import cctk.CctkException;
import cctk.comm.CommBuffer;
import cctk.comm.HostBuffer;
import cctk.comm.HostMemory;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

/**
 * This rank's data segments: one file per allocation, in a slot of the control block's table (a slot's generation
 * counts its reuses and is part of the file's name). A file is unlinked as soon as every peer has mapped it (the
 * last peer to map it does that), when its buffer is freed, or at close. A buffer is freed when its owner says so
 * ({@link #free}, from {@code Communicator.free}): the slot is marked dead (peers drop their mappings at their next
 * look at the table, at the latest when they next allocate) and the mapping is unmapped at once. Nothing waits for
 * the garbage collector. Each allocation's {@link HostMemory} is tagged with its {@link Segment}: the table that
 * made it, its slot and generation, which peers find it by.
 * <b>Note:</b> not threadsafe.
 */
final class OwnSegments {

    /** The largest buffer: one mapping of header and payload. */
    static final long MAX_BYTES = SegmentFiles.MAX_FILE - SegmentHeader.LENGTH;
    private static final int PAGE = 4096;

    /** A segment of this rank, the tag of its memory. <b>Note:</b> not threadsafe. */
    static final class Segment {
        /** The table that made it: buffers of another communicator are not this one's. */
        final OwnSegments table;
        final int slot;
        final long gen;
        final MappedByteBuffer mapping;
        final Path path;
        final long bytes;
        /** The payload, after the header; tagged with this segment. */
        final HostMemory memory;

        Segment(final OwnSegments table, final int slot, final long gen, final MappedByteBuffer mapping,
                final Path path, final long bytes) {
            this.table = table;
            this.slot = slot;
            this.gen = gen;
            this.mapping = mapping;
            this.path = path;
            this.bytes = bytes;
            this.memory = HostMemory.over(mapping.slice(SegmentHeader.LENGTH, (int) bytes), this);
        }

        /** The segment of {@code b}, a buffer of this rank's segments (staged in where it was not). */
        static Segment of(final HostBuffer b) {
            return (Segment) b.memory.tag();
        }

        @Override
        public String toString() {
            return "shm slot " + slot;
        }
    }

    private final Members members;
    private final ControlBlock control;
    private final Segment[] slots = new Segment[ControlBlock.SLOTS];
    private final long[] gens = new long[ControlBlock.SLOTS];
    private final SegmentHeader header = new SegmentHeader();
    private long allocations;
    private long retirements;
    private int slotsInUse;
    private int count;
    private long liveBytes;

    OwnSegments(final Members members) {
        this.members = members;
        this.control = members.controls[members.rank];
    }

    /**
     * A zeroed buffer of {@code bytes} in a new segment. First drops this rank's mappings of what peers freed
     * ({@code peers}), so that their pages can go back to the tmpfs; then, if the tmpfs lacks room for the new
     * segment, fails naming how much it needs and how much is free.
     */
    HostBuffer allocate(final long bytes, final PeerSegments peers) {
        if (bytes < 0 || bytes > MAX_BYTES) {
            throw CctkException.usage("the shm backend allocates buffers of 0 to " + MAX_BYTES + " bytes; " + bytes
                    + " bytes were asked for.");
        }
        if (peers != null) {
            peers.syncAll();
        }
        final long fileBytes = SegmentHeader.LENGTH + bytes;
        final long free = SegmentFiles.usable(members.dir);
        if (free >= 0 && free < fileBytes) {
            throw SegmentFiles.tooSmall(members.label(members.rank), members.dir, fileBytes, free);
        }
        final int slot = freeSlot();
        if (slot < 0) {
            throw CctkException.environment(members.label(members.rank) + " holds " + ControlBlock.SLOTS
                    + " shared-memory buffers at once, the most the shm backend keeps; free buffers that are no"
                    + " longer used.");
        }
        return create(slot, bytes, fileBytes);
    }

    private HostBuffer create(final int slot, final long bytes, final long fileBytes) {
        final long gen = ++gens[slot];
        final String name = members.names.data(members.nonces[members.rank], members.rank, slot, gen);
        final Path path = members.dir.resolve(name);
        final MappedByteBuffer mapping = SegmentFiles.create(members.dir, name, fileBytes);
        try {
            for (long i = 0; i < fileBytes; i += PAGE) { // take the pages now: a full tmpfs fails here, not later
                mapping.put((int) i, (byte) 0);
            }
        } catch (final InternalError e) { // SIGBUS: the tmpfs ran out of pages
            Unmapper.unmap(mapping);
            SegmentFiles.unlink(path);
            throw SegmentFiles.tooSmall(members.label(members.rank), members.dir, fileBytes,
                    SegmentFiles.usable(members.dir));
        }
        header.wrap(mapping).fill(SegmentHeader.KIND_DATA, members.pid, members.startTime, members.rank,
                members.size, slot, gen, bytes);
        header.mac(members.names.seal(members.nonces[members.rank], header, name));
        control.openSlot(slot, gen);
        allocations++;
        slotsInUse = Math.max(slotsInUse, slot + 1);
        control.countersRelease(allocations, retirements, slotsInUse);
        if (members.size == 1) {
            SegmentFiles.unlink(path); // no peer will ever open it
        }
        final Segment segment = new Segment(this, slot, gen, mapping, path, bytes);
        slots[slot] = segment;
        count++;
        liveBytes += bytes;
        return new HostBuffer(segment.memory, 0, (int) bytes);
    }

    private int freeSlot() {
        for (int k = 0; k < slots.length; k++) {
            if (slots[k] == null) {
                return k;
            }
        }
        return -1;
    }

    /** The segment of {@code b} where this table made it (freed or not), else null: a buffer not of this rank. */
    Segment segment(final CommBuffer b) {
        return b instanceof HostBuffer h && h.memory.tag() instanceof Segment s && s.table == this ? s : null;
    }

    /** Whether segment {@code s} of this table is still this rank's (not freed). */
    boolean live(final Segment s) {
        return slots[s.slot] == s;
    }

    /**
     * Frees the segment of {@code b}, which must be a whole buffer {@link #allocate} returned; a buffer freed
     * already is left alone. Its memory leaves this process at once, and the tmpfs once every peer has dropped its
     * mapping. The caller guarantees no peer reads it any more: every collective that published it has returned.
     */
    void free(final HostBuffer b, final Segment s) {
        if (!live(s)) {
            return;
        }
        if (!b.whole()) {
            throw CctkException.usage("only a whole buffer can be freed, not a slice of " + b.length + " bytes at "
                    + b.offset + ".");
        }
        release(s.slot, s);
    }

    private void release(final int slot, final Segment s) {
        slots[slot] = null;
        control.closeSlot(slot, s.gen);
        retirements++;
        control.countersRelease(allocations, retirements, slotsInUse);
        SegmentFiles.unlink(s.path);
        s.memory.free(); // every later use fails instead of touching unmapped memory
        Unmapper.unmap(s.mapping);
        count--;
        liveBytes -= s.bytes;
    }

    int count() {
        return count;
    }

    long liveBytes() {
        return liveBytes;
    }

    /** Frees every segment still held: the communicator is closing, its buffers must not be used any more. */
    void close() {
        for (int k = 0; k < slots.length; k++) {
            final Segment s = slots[k];
            if (s != null) {
                release(k, s);
            }
        }
    }
}
