package cctk.comm;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;

/** The integer half of {@link Reductions}: wrap-around SUM and PROD, signed or unsigned MIN and MAX. */
final class IntegerReductions {

    private IntegerReductions() {
    }

    static void i8(final ReduceOp op, final ByteBuffer out, final int o, final ByteBuffer a, final int ai,
                   final ByteBuffer b, final int bi, final int n) {
        switch (op) {
            case SUM, AVG -> {
                for (int k = 0; k < n; k++) {
                    out.put(o + k, (byte) (a.get(ai + k) + b.get(bi + k)));
                }
            }
            case PROD -> {
                for (int k = 0; k < n; k++) {
                    out.put(o + k, (byte) (a.get(ai + k) * b.get(bi + k)));
                }
            }
            case MIN -> {
                for (int k = 0; k < n; k++) {
                    out.put(o + k, (byte) Math.min(a.get(ai + k), b.get(bi + k)));
                }
            }
            case MAX -> {
                for (int k = 0; k < n; k++) {
                    out.put(o + k, (byte) Math.max(a.get(ai + k), b.get(bi + k)));
                }
            }
            default -> throw new IllegalArgumentException(op.name());
        }
    }

    static void u8(final ReduceOp op, final ByteBuffer out, final int o, final ByteBuffer a, final int ai,
                   final ByteBuffer b, final int bi, final int n) {
        switch (op) {
            case MIN -> {
                for (int k = 0; k < n; k++) {
                    out.put(o + k, (byte) Math.min(a.get(ai + k) & 0xff, b.get(bi + k) & 0xff));
                }
            }
            case MAX -> {
                for (int k = 0; k < n; k++) {
                    out.put(o + k, (byte) Math.max(a.get(ai + k) & 0xff, b.get(bi + k) & 0xff));
                }
            }
            // sum and product modulo 256 have the same bits signed or unsigned
            default -> i8(op, out, o, a, ai, b, bi, n);
        }
    }

    static void i32(final ReduceOp op, final IntBuffer out, final int o, final IntBuffer a, final int ai,
                    final IntBuffer b, final int bi, final int n) {
        switch (op) {
            case SUM, AVG -> {
                for (int k = 0; k < n; k++) {
                    out.put(o + k, a.get(ai + k) + b.get(bi + k));
                }
            }
            case PROD -> {
                for (int k = 0; k < n; k++) {
                    out.put(o + k, a.get(ai + k) * b.get(bi + k));
                }
            }
            case MIN -> {
                for (int k = 0; k < n; k++) {
                    out.put(o + k, Math.min(a.get(ai + k), b.get(bi + k)));
                }
            }
            case MAX -> {
                for (int k = 0; k < n; k++) {
                    out.put(o + k, Math.max(a.get(ai + k), b.get(bi + k)));
                }
            }
            default -> throw new IllegalArgumentException(op.name());
        }
    }

    static void i64(final ReduceOp op, final LongBuffer out, final int o, final LongBuffer a, final int ai,
                    final LongBuffer b, final int bi, final int n) {
        switch (op) {
            case SUM, AVG -> {
                for (int k = 0; k < n; k++) {
                    out.put(o + k, a.get(ai + k) + b.get(bi + k));
                }
            }
            case PROD -> {
                for (int k = 0; k < n; k++) {
                    out.put(o + k, a.get(ai + k) * b.get(bi + k));
                }
            }
            case MIN -> {
                for (int k = 0; k < n; k++) {
                    out.put(o + k, Math.min(a.get(ai + k), b.get(bi + k)));
                }
            }
            case MAX -> {
                for (int k = 0; k < n; k++) {
                    out.put(o + k, Math.max(a.get(ai + k), b.get(bi + k)));
                }
            }
            default -> throw new IllegalArgumentException(op.name());
        }
    }

    static void divide(final DType type, final Buffer buf, final int i, final int n, final int divisor) {
        switch (type) {
            case INT8 -> {
                final ByteBuffer v = (ByteBuffer) buf;
                for (int k = i; k < i + n; k++) {
                    v.put(k, (byte) (v.get(k) / divisor));
                }
            }
            case UINT8 -> {
                final ByteBuffer v = (ByteBuffer) buf;
                for (int k = i; k < i + n; k++) {
                    v.put(k, (byte) ((v.get(k) & 0xff) / divisor));
                }
            }
            case INT32 -> {
                final IntBuffer v = (IntBuffer) buf;
                for (int k = i; k < i + n; k++) {
                    v.put(k, v.get(k) / divisor);
                }
            }
            case INT64 -> {
                final LongBuffer v = (LongBuffer) buf;
                for (int k = i; k < i + n; k++) {
                    v.put(k, v.get(k) / divisor);
                }
            }
            default -> throw new IllegalArgumentException("no integer division for " + type);
        }
    }
}
