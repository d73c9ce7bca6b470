package cctk.coll;

import cctk.comm.CollectiveType;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;

/**
 * One collective, with the parts of nccl-tests' testColl: byte counts, input and expected values, the
 * bus-bandwidth factor and the one communicator call. Implementations never print, time, parse options
 * or touch sockets; {@link cctk.bench.Harness} does all of that. Values are given by blocks: a collective says
 * which origin each block of its send and receive buffers carries, and {@link CasePattern} turns that into the
 * value of every element ({@link PatternStream} fills and checks whole buffers from it).
 */
public interface Collective {

    CollectiveType type();

    /** Whether it moves data at all; a barrier doesn't (no sizes, types, buffers or checks). */
    default boolean carriesData() {
        return true;
    }

    /** Whether the call has a root rank (broadcast, reduce). */
    default boolean rooted() {
        return false;
    }

    /** Whether an in-place form exists. */
    default boolean hasInPlace() {
        return true;
    }

    /** Byte counts for a total size of {@code totalBytes} (the sweep's S before rounding). */
    Layout layout(long totalBytes, cctk.comm.DType type, Group group);

    /** busbw / algbw for {@code world} ranks. */
    double busBwFactor(int world);

    /** Blocks of this rank's send buffer, covering all of it, in elements of the case's type. */
    Blocks sendBlocks(Case c);

    /** Blocks of the receive buffer that have a defined result on this rank, from element 0; none: no check. */
    Blocks recvBlocks(Case c);

    /** How many origins the blocks of all ranks carry together (origins are 0 .. n-1); sizes the {@link Period}. */
    long origins(int world);

    /** Elements of the receive buffer that have a defined result on this rank (0: nothing to check). */
    default long checkedElements(final Case c) {
        return recvBlocks(c).total();
    }

    /** Allowed distance of a received value from the expected one. */
    default double tolerance(final Case c, final double expected) {
        return c.op() == null ? 0 : ExactValues.tolerance(c.op(), c.type(), c.world(), expected);
    }

    /** Issues the call; {@code send} and {@code recv} may be slices of one in-place buffer. */
    void run(Communicator comm, CommBuffer send, CommBuffer recv, Case c);

    /** Rounds a per-rank byte count down to whole elements in multiples of 16 bytes, as nccl-tests does. */
    static long alignedCount(final long bytes, final int elementBytes) {
        final long perAlign = Math.max(1, 16 / elementBytes);
        return bytes / elementBytes / perAlign * perAlign;
    }
}
