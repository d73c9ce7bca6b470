package cctk.comm.shm;

import cctk.CctkException;
import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * This rank's data segments: one file per allocation, in a slot of the control block's table (a slot's generation
 * counts its reuses and is part of the file's name). A file is unlinked as soon as every peer has mapped it (the
 * last peer to map it does that), when its buffer is freed, or at close. A buffer is freed once nothing reaches its
 * {@link Region} any more (a phantom reference, polled at each allocation and collective): the slot is marked dead
 * (peers drop their mappings at their next look at the table) and the mapping is unmapped at once.
 * <b>Note:</b> not threadsafe.
 */
final class OwnSegments {

    /** The largest buffer: one mapping of header and payload. */
    static final long MAX_BYTES = SegmentFiles.MAX_FILE - SegmentHeader.LENGTH;
    private static final int PAGE = 4096;
    /** Below this much free room beyond a request, freed buffers are collected before creating a segment. */
    private static final long HEADROOM = 64L << 20;
    private static final int RECLAIM_TRIES = 5;
    /** Bytes of buffers (live or dropped) past which an allocation first collects dropped ones. */
    private static final long SOFT_BUDGET = 256L << 20;

    /** A live segment; enqueued when its region becomes unreachable. */
    private static final class Segment extends PhantomReference<Region> {
        final int slot;
        final long gen;
        final MappedByteBuffer mapping;
        final Path path;
        final long bytes;

        Segment(final Region region, final ReferenceQueue<Region> queue, final int slot, final long gen,
                final MappedByteBuffer mapping, final Path path, final long bytes) {
            super(region, queue);
            this.slot = slot;
            this.gen = gen;
            this.mapping = mapping;
            this.path = path;
            this.bytes = bytes;
        }
    }

    private final Members members;
    private final ControlBlock control;
    private final ReferenceQueue<Region> freed = new ReferenceQueue<>();
    private final Segment[] slots = new Segment[ControlBlock.SLOTS];
    private final long[] gens = new long[ControlBlock.SLOTS];
    private final SegmentHeader header = new SegmentHeader();
    private long allocations;
    private long retirements;
    private int slotsInUse;
    private int count;
    private long liveBytes;
    private long reclaimAbove = SOFT_BUDGET;

    OwnSegments(final Members members) {
        this.members = members;
        this.control = members.controls[members.rank];
    }

    /** A zeroed buffer of {@code bytes} in a new segment; {@code peers} drop what others freed while room is short. */
    ShmBuffer allocate(final long bytes, final PeerSegments peers) {
        if (bytes < 0 || bytes > MAX_BYTES) {
            throw CctkException.usage("the shm backend allocates buffers of 0 to " + MAX_BYTES + " bytes; " + bytes
                    + " bytes were asked for.");
        }
        drain();
        final long fileBytes = SegmentHeader.LENGTH + bytes;
        long free = SegmentFiles.usable(members.dir);
        int slot = freeSlot();
        if (liveBytes + bytes > reclaimAbove || free >= 0 && free < fileBytes + HEADROOM && liveBytes > 0) {
            // dropped buffers pile up until the collector finds them: collect before they crowd the tmpfs
            reclaim(peers, -1);
            reclaimAbove = Math.max(SOFT_BUDGET, 2 * liveBytes);
            free = SegmentFiles.usable(members.dir);
            slot = freeSlot();
        }
        for (int t = 0; t < RECLAIM_TRIES && (slot < 0 || free >= 0 && free < fileBytes); t++) {
            reclaim(peers, t);
            free = SegmentFiles.usable(members.dir);
            slot = freeSlot();
        }
        if (free >= 0 && free < fileBytes) {
            throw SegmentFiles.tooSmall(members.label(members.rank), members.dir, fileBytes, free);
        }
        if (slot < 0) {
            throw CctkException.environment(members.label(members.rank) + " holds " + ControlBlock.SLOTS
                    + " shared-memory buffers at once, the most the shm backend keeps; drop buffers that are no"
                    + " longer used.");
        }
        return create(slot, bytes, fileBytes);
    }

    private ShmBuffer create(final int slot, final long bytes, final long fileBytes) {
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
        final Region region = new Region(mapping.slice(SegmentHeader.LENGTH, (int) bytes));
        slots[slot] = new Segment(region, freed, slot, gen, mapping, path, bytes);
        count++;
        liveBytes += bytes;
        return new ShmBuffer(this, region, slot, gen, 0, (int) bytes);
    }

    private int freeSlot() {
        for (int k = 0; k < slots.length; k++) {
            if (slots[k] == null) {
                return k;
            }
        }
        return -1;
    }

    /** Collects unreachable buffers, drops peers' freed segments; waits longer on each try (attempt < 0: briefly). */
    private void reclaim(final PeerSegments peers, final int attempt) {
        System.gc();
        // the reference handler enqueues what the collection found
        LockSupport.parkNanos((attempt < 0 ? 10L : 50L << attempt) * 1_000_000L);
        drain();
        if (peers != null) {
            peers.syncAll();
        }
    }

    /** Frees every segment whose buffers are all unreachable now (allocation-free when there is none). */
    void drain() {
        for (Reference<? extends Region> r = freed.poll(); r != null; r = freed.poll()) {
            final Segment s = (Segment) r;
            if (slots[s.slot] == s) {
                free(s);
            }
        }
    }

    private void free(final Segment s) {
        slots[s.slot] = null;
        control.closeSlot(s.slot, s.gen);
        retirements++;
        control.countersRelease(allocations, retirements, slotsInUse);
        SegmentFiles.unlink(s.path);
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

    /**
     * Unlinks every file still linked and forgets the segments. Mappings stay for buffers the caller may still hold;
     * the collector unmaps them with those buffers.
     */
    void close() {
        drain();
        for (int k = 0; k < slots.length; k++) {
            final Segment s = slots[k];
            if (s != null) {
                control.closeSlot(k, s.gen);
                SegmentFiles.unlink(s.path);
                s.clear();
                slots[k] = null;
            }
        }
        count = 0;
        liveBytes = 0;
    }
}
