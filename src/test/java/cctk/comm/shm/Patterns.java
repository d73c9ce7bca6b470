package cctk.comm.shm;

import cctk.comm.DType;
import cctk.comm.HalfFloats;
import cctk.comm.ReduceOp;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Inputs whose reduction is exact in every dtype and order (small integers; 8-bit integers wrap, uint8 spans
 * 0..255 so unsigned order shows), and the expected results computed independently in long/double arithmetic.
 * Values repeat every {@link #PERIOD} elements (a prime, so a block landing at a wrong offset shows); one period per
 * key is encoded once and buffers are tiled from it.
 */
final class Patterns {

    static final int PERIOD = 5003;
    private static final Map<String, byte[]> CACHE = new ConcurrentHashMap<>();

    private Patterns() {
    }

    /** Element {@code i} of rank {@code rank}'s input; {@code op} null for data movement. */
    static long value(final DType type, final ReduceOp op, final int rank, final long i) {
        final long k = i % PERIOD;
        if (op == null) {
            return (rank * 31L + k * 17L) % 251;
        }
        if (op == ReduceOp.PROD) {
            return (rank + k) % 3 + 1;
        }
        if (type == DType.UINT8 || type == DType.INT8 && op != ReduceOp.AVG) {
            return ((rank * 89L + k * 7L) % 256) - (type == DType.INT8 ? 128 : 0);
        }
        if (op == ReduceOp.MIN || op == ReduceOp.MAX) {
            return (rank * 5L + k * 3L) % 7 - 3;
        }
        return (rank * 2L + k) % 3 + 1;
    }

    /** Elements {@code first..first+count} of rank {@code rank}'s input, little-endian. */
    static ByteBuffer input(final DType type, final ReduceOp op, final int rank, final long first, final long count) {
        final byte[] p = CACHE.computeIfAbsent("in " + type + op + rank, k -> encode(type, op, rank, -1));
        return tile(p, type, first, count);
    }

    /** Elements {@code first..first+count} of the reduction over ranks 0..world-1. */
    static ByteBuffer reduced(final DType type, final ReduceOp op, final int world, final long first,
                              final long count) {
        final byte[] p = CACHE.computeIfAbsent("out " + type + op + world, k -> encode(type, op, -1, world));
        return tile(p, type, first, count);
    }

    private static ByteBuffer tile(final byte[] period, final DType type, final long first, final long count) {
        final int unit = type.bytes();
        final ByteBuffer b = ByteBuffer.allocate((int) (count * unit)).order(ByteOrder.LITTLE_ENDIAN);
        long i = first;
        while (b.hasRemaining()) {
            final int k = (int) (i % PERIOD);
            final int n = (int) Math.min(PERIOD - k, b.remaining() / unit);
            b.put(period, k * unit, n * unit);
            i += n;
        }
        return b.flip();
    }

    private static byte[] encode(final DType type, final ReduceOp op, final int rank, final int world) {
        final ByteBuffer b = ByteBuffer.allocate(PERIOD * type.bytes()).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < PERIOD; i++) {
            if (world < 0) {
                putExact(b, type, value(type, op, rank, i));
            } else {
                putReduced(b, type, op, world, i);
            }
        }
        return b.array();
    }

    private static void putReduced(final ByteBuffer b, final DType type, final ReduceOp op, final int world,
                                   final int i) {
        long acc = value(type, op, 0, i);
        for (int r = 1; r < world; r++) {
            final long x = value(type, op, r, i);
            acc = switch (op) {
                case SUM, AVG -> acc + x;
                case PROD -> acc * x;
                case MIN -> Math.min(acc, x);
                case MAX -> Math.max(acc, x);
            };
        }
        if (op != ReduceOp.AVG) {
            putExact(b, type, acc);
            return;
        }
        switch (type) {
            case FLOAT32 -> b.putFloat((float) acc / (float) world);
            case FLOAT64 -> b.putDouble((double) acc / world);
            case FLOAT16 -> b.putShort(HalfFloats.floatToFloat16((float) acc / (float) world));
            case BFLOAT16 -> b.putShort(HalfFloats.floatToBfloat16((float) acc / (float) world));
            case UINT8 -> b.put((byte) ((acc & 0xff) / world));
            case INT8 -> b.put((byte) ((byte) acc / world));
            case INT32 -> b.putInt((int) acc / world);
            case INT64 -> b.putLong(acc / world);
            default -> throw new IllegalArgumentException(type.name());
        }
    }

    /** An integer stored in {@code type} (8-bit and 32-bit integers wrap). */
    private static void putExact(final ByteBuffer b, final DType type, final long v) {
        switch (type) {
            case FLOAT32 -> b.putFloat(v);
            case FLOAT64 -> b.putDouble(v);
            case FLOAT16 -> b.putShort(HalfFloats.floatToFloat16(v));
            case BFLOAT16 -> b.putShort(HalfFloats.floatToBfloat16(v));
            case INT8, UINT8 -> b.put((byte) v);
            case INT32 -> b.putInt((int) v);
            case INT64 -> b.putLong(v);
            default -> throw new IllegalArgumentException(type.name());
        }
    }
}
