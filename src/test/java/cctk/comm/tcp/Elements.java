package cctk.comm.tcp;

import cctk.comm.DType;
import cctk.comm.HalfFloats;
import cctk.comm.ReduceOp;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Test inputs and the straightforward reference: element values are small integers (exact in every dtype, so
 * the order of reduction cannot matter), reduced here in long/double arithmetic and wrapped into the dtype.
 */
final class Elements {

    private Elements() {
    }

    /** The input element {@code i} of rank {@code rank}; uint8 uses values above 127 to test unsigned order. */
    static long value(final DType type, final ReduceOp op, final int rank, final long i) {
        final long v = (rank * 7L + i * 3L) % 3 + 1;
        if (type == DType.UINT8 && op != ReduceOp.PROD) {
            return (rank * 53L + i * 29L) % 250;
        }
        if ((op == ReduceOp.MIN || op == ReduceOp.MAX) && type != DType.UINT8) {
            return (rank * 5L + i * 3L) % 7 - 3;
        }
        return v;
    }

    /** The reference reduction of element {@code i} of the given ranks' inputs, as stored in the dtype. */
    static double reduceRef(final DType type, final ReduceOp op, final int world, final long i,
                            final java.util.function.IntToLongFunction inputOfRank) {
        long acc = inputOfRank.applyAsLong(0);
        for (int r = 1; r < world; r++) {
            final long x = inputOfRank.applyAsLong(r);
            acc = switch (op) {
                case SUM, AVG -> acc + x;
                case PROD -> acc * x;
                case MIN -> Math.min(acc, x);
                case MAX -> Math.max(acc, x);
            };
        }
        if (!type.floating()) {
            long wrapped = wrap(type, acc);
            if (op == ReduceOp.AVG) {
                wrapped = wrapped / world;
            }
            return wrapped;
        }
        if (op == ReduceOp.AVG) {
            return type == DType.FLOAT64 ? (double) acc / world : (float) ((double) acc / world);
        }
        return acc;
    }

    static long wrap(final DType type, final long v) {
        return switch (type) {
            case INT8 -> (byte) v;
            case UINT8 -> v & 0xff;
            case INT32 -> (int) v;
            default -> v;
        };
    }

    static ByteBuffer allocate(final long count, final DType type) {
        return ByteBuffer.allocate((int) (count * type.bytes())).order(ByteOrder.LITTLE_ENDIAN);
    }

    static void put(final ByteBuffer b, final DType type, final int i, final double v) {
        final int at = i * type.bytes();
        switch (type) {
            case FLOAT32 -> b.putFloat(at, (float) v);
            case FLOAT64 -> b.putDouble(at, v);
            case FLOAT16 -> b.putShort(at, HalfFloats.floatToFloat16((float) v));
            case BFLOAT16 -> b.putShort(at, HalfFloats.floatToBfloat16((float) v));
            case INT8, UINT8 -> b.put(at, (byte) (long) v);
            case INT32 -> b.putInt(at, (int) (long) v);
            case INT64 -> b.putLong(at, (long) v);
            default -> throw new IllegalArgumentException(type.name());
        }
    }
}
