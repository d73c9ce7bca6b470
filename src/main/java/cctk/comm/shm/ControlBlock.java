package cctk.comm.shm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Flyweight over one rank's control segment (after its {@link SegmentHeader}). Only the owner writes it, except the
 * per-slot mapped counts, which peers increment. Fields are 8-byte aligned longs accessed through a VarHandle view,
 * and memory ordering is in the method names: the owner writes descriptors with plain stores and then publishes
 * them with a release store of its epoch; a peer's acquire load of that epoch makes them visible.
 * <pre>
 *   @0     epoch | gone                                      (128 B: polled by every peer)
 *   @128   allocations | retirements | slots in use         (128 B)
 *   @256   send slot | send gen | send offset | recv slot | recv gen | recv offset   (collective arguments)
 *   @384   alltoallv send counts [W] | send displacements [W]
 *   @p2p   per peer q, 64 B: sends posted to q | q's sends consumed | slot | gen | offset | length
 *   @table per data slot, 16 B: state (gen &lt;&lt; 1 | live) | mapped (gen &lt;&lt; 16 | peers that mapped it)
 * </pre>
 * <b>Note:</b> threadsafe for the owner and its peers as laid out above; one thread per process writes.
 */
final class ControlBlock {

    /** Data segments a rank can hold at once. */
    static final int SLOTS = 4096;
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class,
            ByteOrder.nativeOrder());
    private static final int EPOCH = 0;
    private static final int GONE = 8;
    private static final int ALLOCS = 128;
    private static final int RETIRED = 136;
    private static final int HIGH_SLOT = 144;
    private static final int DESC = 256;
    private static final int VCOUNTS = 384;
    private static final int P2P_LINE = 64;
    private static final int SEQ = 0;
    private static final int ACK = 8;
    private static final int P2P_SLOT = 16;
    private static final int P2P_GEN = 24;
    private static final int P2P_OFF = 32;
    private static final int P2P_LEN = 40;
    private static final int ENTRY = 16;
    private static final int MAPPED_SHIFT = 16;

    private final ByteBuffer b;
    private final int p2p;
    private final int table;

    ControlBlock(final ByteBuffer control, final int size) {
        this.b = control;
        this.p2p = align(VCOUNTS + 16 * size);
        this.table = p2p + P2P_LINE * size;
    }

    /** Bytes of a control block for {@code size} ranks. */
    static int bytes(final int size) {
        return align(VCOUNTS + 16 * size) + P2P_LINE * size + ENTRY * SLOTS;
    }

    private static int align(final int n) {
        return (n + 127) & ~127;
    }

    long epochAcquire() {
        return (long) LONGS.getAcquire(b, EPOCH);
    }

    void epochRelease(final long epoch) {
        LONGS.setRelease(b, EPOCH, epoch);
    }

    boolean goneAcquire() {
        return (long) LONGS.getAcquire(b, GONE) != 0;
    }

    void goneRelease() {
        LONGS.setRelease(b, GONE, 1L);
    }

    long allocationsAcquire() {
        return (long) LONGS.getAcquire(b, ALLOCS);
    }

    long retirementsAcquire() {
        return (long) LONGS.getAcquire(b, RETIRED);
    }

    int slotsInUseAcquire() {
        return (int) (long) LONGS.getAcquire(b, HIGH_SLOT);
    }

    /** Publishes the slot table's counters after an allocation or a retirement. */
    void countersRelease(final long allocations, final long retirements, final int slotsInUse) {
        LONGS.setRelease(b, HIGH_SLOT, (long) slotsInUse);
        LONGS.setRelease(b, RETIRED, retirements);
        LONGS.setRelease(b, ALLOCS, allocations);
    }

    /** Buffer {@code which} (0 send, 1 recv) of the current collective: slot (-1: none), generation, byte offset. */
    void descriptor(final int which, final long slot, final long gen, final long offset) {
        final int at = DESC + 24 * which;
        LONGS.set(b, at, slot);
        LONGS.set(b, at + 8, gen);
        LONGS.set(b, at + 16, offset);
    }

    long descriptorSlot(final int which) {
        return (long) LONGS.get(b, DESC + 24 * which);
    }

    long descriptorGen(final int which) {
        return (long) LONGS.get(b, DESC + 24 * which + 8);
    }

    long descriptorOffset(final int which) {
        return (long) LONGS.get(b, DESC + 24 * which + 16);
    }

    void vCount(final int peer, final long count, final long displ, final int size) {
        LONGS.set(b, VCOUNTS + 8 * peer, count);
        LONGS.set(b, VCOUNTS + 8 * (size + peer), displ);
    }

    long vCount(final int peer) {
        return (long) LONGS.get(b, VCOUNTS + 8 * peer);
    }

    long vDispl(final int peer, final int size) {
        return (long) LONGS.get(b, VCOUNTS + 8 * (size + peer));
    }

    /** Sends this rank has posted to {@code peer}. */
    long sendsAcquire(final int peer) {
        return (long) LONGS.getAcquire(b, p2p + P2P_LINE * peer + SEQ);
    }

    /** Describes the next send to {@code peer}, then posts it (release). */
    void postSend(final int peer, final long seq, final long slot, final long gen, final long offset,
                  final long length) {
        final int at = p2p + P2P_LINE * peer;
        LONGS.set(b, at + P2P_SLOT, slot);
        LONGS.set(b, at + P2P_GEN, gen);
        LONGS.set(b, at + P2P_OFF, offset);
        LONGS.set(b, at + P2P_LEN, length);
        LONGS.setRelease(b, at + SEQ, seq);
    }

    long sendSlot(final int peer) {
        return (long) LONGS.get(b, p2p + P2P_LINE * peer + P2P_SLOT);
    }

    long sendGen(final int peer) {
        return (long) LONGS.get(b, p2p + P2P_LINE * peer + P2P_GEN);
    }

    long sendOffset(final int peer) {
        return (long) LONGS.get(b, p2p + P2P_LINE * peer + P2P_OFF);
    }

    long sendLength(final int peer) {
        return (long) LONGS.get(b, p2p + P2P_LINE * peer + P2P_LEN);
    }

    /** Sends of {@code peer} this rank has consumed. */
    long consumedAcquire(final int peer) {
        return (long) LONGS.getAcquire(b, p2p + P2P_LINE * peer + ACK);
    }

    void consumedRelease(final int peer, final long count) {
        LONGS.setRelease(b, p2p + P2P_LINE * peer + ACK, count);
    }

    /** State of data slot {@code slot}: {@code gen << 1 | live}. */
    long slotAcquire(final int slot) {
        return (long) LONGS.getAcquire(b, table + ENTRY * slot);
    }

    /** Opens generation {@code gen} of {@code slot}: resets its mapped count, then marks it live (release). */
    void openSlot(final int slot, final long gen) {
        LONGS.setRelease(b, table + ENTRY * slot + 8, gen << MAPPED_SHIFT);
        LONGS.setRelease(b, table + ENTRY * slot, gen << 1 | 1);
    }

    void closeSlot(final int slot, final long gen) {
        LONGS.setRelease(b, table + ENTRY * slot, gen << 1);
    }

    /**
     * Counts one more peer that mapped generation {@code gen} of {@code slot}: the new count, or -1 when the slot has
     * moved on to another generation meanwhile.
     */
    int countMapped(final int slot, final long gen) {
        final int at = table + ENTRY * slot + 8;
        while (true) {
            final long v = (long) LONGS.getAcquire(b, at);
            if (v >>> MAPPED_SHIFT != gen) {
                return -1;
            }
            if (LONGS.compareAndSet(b, at, v, v + 1)) {
                return (int) ((v + 1) & ((1L << MAPPED_SHIFT) - 1));
            }
        }
    }
}
