package cctk.comm.shm;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Flyweight over the first page of every segment file: who made it and what it holds, so that a peer can check a
 * file before trusting it and a later run can tell a dead job's files from a live one's.
 * <pre>
 *   0                   8         12        16                  24
 *   +-------------------+---------+---------+-------------------+
 *   | magic "CCTKSHM1"  | version | kind    | creator pid       |
 *   +-------------------+---------+---------+-------------------+
 *   | creator start time (/proc/pid/stat field 22)  @24          |
 *   | rank @32 | size @36 | slot @40 | reserved @44              |
 *   | generation @48    | data bytes @56                         |
 *   | HMAC-SHA256 over bytes 0..63 and the file name  @64 .. 95  |
 *   +------------------------------------------------------------+   data starts at {@link #LENGTH}
 * </pre>
 * <b>Note:</b> not threadsafe.
 */
final class SegmentHeader {

    /** Bytes before a segment's payload: one page, so the payload is page-aligned. */
    static final int LENGTH = 4096;
    /** Bytes the MAC covers. */
    static final int SIGNED = 64;
    static final long MAGIC = 0x31_4D_48_53_4B_54_43_43L; // "CCTKSHM1" read as a little-endian long
    static final int VERSION = 1;
    static final int KIND_CONTROL = 0;
    static final int KIND_DATA = 1;

    private static final int MAGIC_OFFSET = 0;
    private static final int VERSION_OFFSET = 8;
    private static final int KIND_OFFSET = 12;
    private static final int PID_OFFSET = 16;
    private static final int START_OFFSET = 24;
    private static final int RANK_OFFSET = 32;
    private static final int SIZE_OFFSET = 36;
    private static final int SLOT_OFFSET = 40;
    private static final int GEN_OFFSET = 48;
    private static final int BYTES_OFFSET = 56;
    static final int MAC_OFFSET = 64;
    static final int MAC_LENGTH = 32;

    private ByteBuffer buffer;

    SegmentHeader wrap(final ByteBuffer header) {
        this.buffer = header.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /** Writes every field but the MAC. */
    SegmentHeader fill(final int kind, final long pid, final long startTime, final int rank, final int size,
                       final int slot, final long gen, final long dataBytes) {
        buffer.putLong(MAGIC_OFFSET, MAGIC).putInt(VERSION_OFFSET, VERSION).putInt(KIND_OFFSET, kind)
                .putLong(PID_OFFSET, pid).putLong(START_OFFSET, startTime).putInt(RANK_OFFSET, rank)
                .putInt(SIZE_OFFSET, size).putInt(SLOT_OFFSET, slot).putLong(GEN_OFFSET, gen)
                .putLong(BYTES_OFFSET, dataBytes);
        return this;
    }

    boolean valid() {
        return buffer.capacity() >= MAC_OFFSET + MAC_LENGTH && buffer.getLong(MAGIC_OFFSET) == MAGIC
                && buffer.getInt(VERSION_OFFSET) == VERSION;
    }

    int kind() {
        return buffer.getInt(KIND_OFFSET);
    }

    long pid() {
        return buffer.getLong(PID_OFFSET);
    }

    long startTime() {
        return buffer.getLong(START_OFFSET);
    }

    int rank() {
        return buffer.getInt(RANK_OFFSET);
    }

    int size() {
        return buffer.getInt(SIZE_OFFSET);
    }

    int slot() {
        return buffer.getInt(SLOT_OFFSET);
    }

    long gen() {
        return buffer.getLong(GEN_OFFSET);
    }

    long dataBytes() {
        return buffer.getLong(BYTES_OFFSET);
    }

    /** The signed bytes 0..63. */
    byte[] signed() {
        final byte[] b = new byte[SIGNED];
        buffer.get(0, b);
        return b;
    }

    byte[] mac() {
        final byte[] b = new byte[MAC_LENGTH];
        buffer.get(MAC_OFFSET, b);
        return b;
    }

    SegmentHeader mac(final byte[] mac) {
        buffer.put(MAC_OFFSET, mac, 0, MAC_LENGTH);
        return this;
    }
}
