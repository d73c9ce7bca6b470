package cctk.comm.shm;

import cctk.CctkException;
import cctk.comm.HostMemory;
import java.nio.MappedByteBuffer;

/**
 * This rank's mappings of its peers' data segments, by peer and slot. Whenever a peer's table counters have moved
 * (two acquire loads per look), the table is scanned: every live segment not yet mapped is mapped at once (so each
 * file is unlinked after the first collective that follows its allocation, by the last peer to map it), and
 * mappings of freed segments are unmapped. A mapped file is trusted only if its header carries the owner's seal.
 * <b>Note:</b> not threadsafe.
 */
final class PeerSegments {

    /** One peer segment as this rank maps it. */
    private static final class Mapping {
        final long gen;
        final MappedByteBuffer mapping;
        final HostMemory memory;

        Mapping(final long gen, final MappedByteBuffer mapping, final HostMemory memory) {
            this.gen = gen;
            this.mapping = mapping;
            this.memory = memory;
        }
    }

    private final Members members;
    private final Mapping[][] maps;
    private final long[] seenAllocations;
    private final long[] seenRetirements;
    private final SegmentHeader header = new SegmentHeader();
    private int count;

    PeerSegments(final Members members) {
        this.members = members;
        this.maps = new Mapping[members.size][];
        this.seenAllocations = new long[members.size];
        this.seenRetirements = new long[members.size];
        for (int p = 0; p < members.size; p++) {
            if (p != members.rank) {
                maps[p] = new Mapping[ControlBlock.SLOTS];
            }
        }
    }

    /** Brings this rank's view of {@code peer}'s segments up to date (nothing to do, no allocation, if unchanged). */
    void sync(final int peer) {
        final ControlBlock c = members.controls[peer];
        final long allocations = c.allocationsAcquire();
        final long retirements = c.retirementsAcquire();
        if (allocations == seenAllocations[peer] && retirements == seenRetirements[peer]) {
            return;
        }
        seenAllocations[peer] = allocations;
        seenRetirements[peer] = retirements;
        final int inUse = Math.min(ControlBlock.SLOTS, c.slotsInUseAcquire());
        final Mapping[] row = maps[peer];
        for (int k = 0; k < inUse; k++) {
            final long state = c.slotAcquire(k);
            final boolean live = (state & 1) != 0;
            final long gen = state >>> 1;
            final Mapping m = row[k];
            if (m != null && (!live || m.gen != gen)) {
                unmap(row, k);
            }
            if (live && row[k] == null) {
                row[k] = map(peer, k, gen); // null: freed again meanwhile
                count += row[k] == null ? 0 : 1;
            }
        }
    }

    void syncAll() {
        for (int p = 0; p < members.size; p++) {
            if (p != members.rank) {
                sync(p);
            }
        }
    }

    /** The payload of generation {@code gen} of {@code peer}'s slot {@code slot}, which {@code peer} published. */
    HostMemory view(final int peer, final long slot, final long gen) {
        if (slot < 0 || slot >= ControlBlock.SLOTS) {
            throw CctkException.environment(members.label(members.rank) + " read a buffer slot " + slot + " from "
                    + members.label(peer) + ", which no rank writes; its shared memory is corrupt.");
        }
        Mapping m = maps[peer][(int) slot];
        if (m == null || m.gen != gen) {
            sync(peer);
            m = maps[peer][(int) slot];
        }
        if (m == null || m.gen != gen) {
            throw CctkException.environment(members.label(members.rank) + " cannot map the buffer that "
                    + members.label(peer) + " published (slot " + slot + ", generation " + gen + "): its segment is"
                    + " no longer in " + members.dir + " (removed by hand, or by a sweep for stale segments?).");
        }
        return m.memory;
    }

    private Mapping map(final int peer, final int slot, final long gen) {
        final String name = members.names.data(members.nonces[peer], peer, slot, gen);
        final MappedByteBuffer mapping = SegmentFiles.open(members.dir, name);
        if (mapping == null) {
            return null;
        }
        header.wrap(mapping);
        if (!members.names.sealed(members.nonces[peer], header, name) || header.kind() != SegmentHeader.KIND_DATA
                || header.rank() != peer || header.slot() != slot || header.gen() != gen
                || header.dataBytes() != mapping.capacity() - SegmentHeader.LENGTH) {
            Unmapper.unmap(mapping);
            throw CctkException.environment(members.label(members.rank) + " refuses the segment " + members.dir
                    .resolve(name) + ": it does not carry " + members.label(peer) + "'s seal (a file planted by"
                    + " someone without the job's secret?).");
        }
        final int mapped = members.controls[peer].countMapped(slot, gen);
        if (mapped < 0) { // the owner freed it while we mapped it
            Unmapper.unmap(mapping);
            return null;
        }
        if (mapped == members.size - 1) {
            SegmentFiles.unlink(members.dir.resolve(name)); // every peer has it: nobody needs the name any more
        }
        return new Mapping(gen, mapping, HostMemory.over(mapping.slice(SegmentHeader.LENGTH,
                (int) header.dataBytes()), null));
    }

    private void unmap(final Mapping[] row, final int k) {
        row[k].memory.free(); // marks it freed: its views go with the mapping
        Unmapper.unmap(row[k].mapping);
        row[k] = null;
        count--;
    }

    /** Segments of peers mapped now. */
    int count() {
        return count;
    }

    void close() {
        for (final Mapping[] row : maps) {
            for (int k = 0; row != null && k < row.length; k++) {
                if (row[k] != null) {
                    unmap(row, k);
                }
            }
        }
    }
}
