package cctk.comm.tcp;

import cctk.comm.DType;
import cctk.comm.HalfFloats;
import cctk.comm.ReduceOp;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntToDoubleFunction;

/**
 * Test inputs and the straightforward reference: element values are small integers (exact in every dtype, so
 * the order of reduction cannot matter), reduced here in long/double arithmetic and wrapped into the dtype.
 * Inputs repeat every {@link #PERIOD} elements, so one period of every input and result is encoded once and
 * buffers are built by copying it: no per-element calls on the test's hot path. (Per-element calls through a
 * lambda that sees every dtype and op made HotSpot deoptimise the reference over and over until it ran
 * interpreted, 40x slower, in about one run in five.)
 */
final class ReferenceData {

    /** lcm(3, 7, 250): the periods of the sum/prod, min/max and uint8 inputs. */
    static final int PERIOD = 5250;

    private static final Map<String, byte[]> PERIODS = new ConcurrentHashMap<>();

    private ReferenceData() {
    }

    /**
     * The input element {@code i} of rank {@code rank}. Data movement ({@code op} null) and uint8 use 0..249, so
     * a block moved by up to 250 elements shows, and uint8 sees values above 127 (unsigned order).
     */
    static long value(final DType type, final ReduceOp op, final int rank, final long i) {
        if (op == null || type == DType.UINT8 && op != ReduceOp.PROD) {
            return (rank * 53L + i * 29L) % 250;
        }
        if ((op == ReduceOp.MIN || op == ReduceOp.MAX) && type != DType.UINT8) {
            return (rank * 5L + i * 3L) % 7 - 3;
        }
        return (rank * 7L + i) % 3 + 1;
    }

    /** ReferenceData {@code first .. first+count-1} of rank {@code rank}'s input, encoded. */
    static ByteBuffer inputs(final DType type, final ReduceOp op, final int rank, final long first,
                             final long count) {
        return appendInputs(allocate(count, type), type, op, rank, first, count).flip();
    }

    /** ReferenceData {@code first .. first+count-1} of the reduction of every rank's input, encoded. */
    static ByteBuffer reduced(final DType type, final ReduceOp op, final int world, final long first,
                              final long count) {
        final byte[] period = period("reduced " + type + " " + op + " " + world, type,
                i -> reduceRef(type, op, world, i));
        return tile(allocate(count, type), period, type, first, count).flip();
    }

    /** Appends {@code count} elements of rank {@code rank}'s input from element {@code first} to {@code out}. */
    static ByteBuffer appendInputs(final ByteBuffer out, final DType type, final ReduceOp op, final int rank,
                                   final long first, final long count) {
        final byte[] period = period("input " + type + " " + op + " " + rank, type, i -> value(type, op, rank, i));
        return tile(out, period, type, first, count);
    }

    static ByteBuffer allocate(final long count, final DType type) {
        return ByteBuffer.allocate((int) (count * type.bytes())).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** One period of the sequence {@code element(0..PERIOD)}, encoded once per key and then shared. */
    private static byte[] period(final String key, final DType type, final IntToDoubleFunction element) {
        return PERIODS.computeIfAbsent(key, k -> {
            final double[] values = new double[PERIOD];
            for (int i = 0; i < PERIOD; i++) {
                values[i] = element.applyAsDouble(i);
            }
            return encode(type, values);
        });
    }

    private static ByteBuffer tile(final ByteBuffer out, final byte[] period, final DType type, final long first,
                                   final long count) {
        final int unit = type.bytes();
        long done = 0;
        while (done < count) {
            final int k = (int) ((first + done) % PERIOD);
            final int n = (int) Math.min(PERIOD - k, count - done);
            out.put(period, k * unit, n * unit);
            done += n;
        }
        return out;
    }

    private static double reduceRef(final DType type, final ReduceOp op, final int world, final long i) {
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
        if (!type.floating()) {
            final long wrapped = wrap(type, acc);
            return op == ReduceOp.AVG ? wrapped / world : wrapped;
        }
        if (op == ReduceOp.AVG) {
            return type == DType.FLOAT64 ? (double) acc / world : (float) ((double) acc / world);
        }
        return acc;
    }

    private static long wrap(final DType type, final long v) {
        return switch (type) {
            case INT8 -> (byte) v;
            case UINT8 -> v & 0xff;
            case INT32 -> (int) v;
            default -> v;
        };
    }

    private static byte[] encode(final DType type, final double[] values) {
        final ByteBuffer b = allocate(values.length, type);
        for (int i = 0; i < values.length; i++) {
            final int at = i * type.bytes();
            final double v = values[i];
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
        return b.array();
    }
}
