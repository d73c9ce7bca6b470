package cctk.bench;

import cctk.coll.Case;
import cctk.coll.CasePattern;
import cctk.coll.Collective;
import cctk.comm.CollectiveType;
import cctk.coll.Collectives;
import cctk.coll.Elements;
import cctk.coll.Group;
import cctk.comm.HostBuffer;
import cctk.coll.Layout;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;

/**
 * Component benchmark of the product path's fills and checks ({@link BufferData}, as {@link MeasureStep} calls it),
 * per rank, on tcp-like host memory: fill the send buffer, poison a receive buffer, count the wrong elements of a
 * receive buffer that holds the right result. Prints GB/s per rank (median of the repeats, after one warm-up) for
 * all_reduce (sum) and all_gather at W=4, rank 1, float32 and bfloat16: each step's own bytes over its time
 * (fill: the send buffer, poison: the receive buffer, check: its checked part), and together the bytes of the
 * steps over the sum of their times. Not a test: no asserts on time.
 * <p>usage: {@code FillCheckBench [MiB per buffer, default 64] [repeats, default 5] [collectives, default
 * all_reduce,all_gather] [types, default float32,bfloat16]}
 */
public final class FillCheckBench {

    private static final int WORLD = 4;
    private static final int RANK = 1;

    private FillCheckBench() {
    }

    public static void main(final String[] args) {
        final long bytes = (args.length > 0 ? Long.parseLong(args[0]) : 64) << 20;
        final int reps = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        final String colls = args.length > 2 ? args[2] : "all_reduce,all_gather";
        final String types = args.length > 3 ? args[3] : "float32,bfloat16";
        System.out.printf(Locale.ROOT, "# fill/check per rank, %d MiB, W=%d rank %d, median of %d (GB/s = 1e9 B/s)%n",
            bytes >> 20, WORLD, RANK, reps);
        System.out.printf(Locale.ROOT, "%-11s %-9s %9s %9s %9s %11s %17s %7s%n", "collective", "dtype", "fill",
            "poison", "check", "fill+check", "fill+poison+check", "wrong");
        final BufferData data = new BufferData();
        sweepWarmUp(data);
        for (final String cn : colls.split(",")) {
            for (final String tn : types.split(",")) {
                run(data, CollectiveType.bySpecName(cn), DType.bySpecName(tn), bytes, reps);
            }
        }
    }

    private static void run(final BufferData data, final CollectiveType type, final DType dtype, final long bytes,
                            final int reps) {
        final Collective coll = Collectives.of(type);
        final Layout l = coll.layout(bytes, dtype, new Group(WORLD, RANK, null));
        final Case c = new Case(dtype, type.reduces() ? ReduceOp.SUM : null, WORLD, RANK, 0, 1, l);
        final HostBuffer send = HostBuffer.allocate(Math.toIntExact(l.sendBytes()));
        final HostBuffer recv = HostBuffer.allocate(Math.toIntExact(l.recvBytes()));
        final HostBuffer scratch = HostBuffer.allocate(Math.toIntExact(l.recvBytes()));
        writeExpected(coll, c, recv);
        final long[] fill = new long[reps];
        final long[] poison = new long[reps];
        final long[] check = new long[reps];
        long wrong = 0;
        for (int k = -1; k < reps; k++) {
            final long t0 = System.nanoTime();
            data.fill(coll, c, send);
            final long t1 = System.nanoTime();
            data.poison(scratch);
            final long t2 = System.nanoTime();
            wrong = data.countWrong(coll, c, recv);
            final long t3 = System.nanoTime();
            if (k >= 0) {
                fill[k] = t1 - t0;
                poison[k] = t2 - t1;
                check[k] = t3 - t2;
            }
        }
        final double f = median(fill);
        final double p = median(poison);
        final double ch = median(check);
        final long checked = coll.checkedElements(c) * dtype.bytes();
        System.out.printf(Locale.ROOT, "%-11s %-9s %9.2f %9.2f %9.2f %11.2f %17.2f %7d%n", type.specName(),
            dtype.specName(), l.sendBytes() / f, l.recvBytes() / p, checked / ch, (l.sendBytes() + checked) / (f + ch),
            (l.sendBytes() + l.recvBytes() + checked) / (f + p + ch), wrong);
    }

    /**
     * Fills and checks every collective, type and operator once at 64 KiB, as a sweep does before its large sizes:
     * the JIT then sees the call sites a real run sees (every collective and type), not one collective alone.
     */
    private static void sweepWarmUp(final BufferData data) {
        for (final CollectiveType type : CollectiveType.values()) {
            final Collective coll = Collectives.of(type);
            if (!coll.carriesData()) {
                continue;
            }
            for (final DType dtype : DType.values()) {
                for (final ReduceOp op : type.reduces() ? ReduceOp.values() : new ReduceOp[] {null}) {
                    final Layout l = coll.layout(64 << 10, dtype,
                        new Group(WORLD, RANK, cctk.coll.AllToAllV.spreadWeights(WORLD, 2)));
                    final Case c = new Case(dtype, op, WORLD, RANK, 0, 1, l);
                    final HostBuffer send = HostBuffer.allocate(Math.toIntExact(l.sendBytes()));
                    final HostBuffer recv = HostBuffer.allocate(Math.toIntExact(l.recvBytes()));
                    writeExpected(coll, c, recv);
                    data.fill(coll, c, send);
                    data.poison(send);
                    if (data.countWrong(coll, c, recv) != 0) {
                        throw new IllegalStateException("wrong elements in " + type + " " + dtype + " " + op);
                    }
                }
            }
        }
    }

    /** The right result, element by element from the collective's definition: setup, not timed. */
    private static void writeExpected(final Collective coll, final Case c, final HostBuffer recv) {
        final int size = c.type().bytes();
        final ByteBuffer host = ByteBuffer.allocate(1 << 20).order(Elements.ORDER);
        final CasePattern pattern = CasePattern.of(coll, c);
        final long n = coll.checkedElements(c);
        final int per = host.capacity() / size;
        for (long start = 0; start < n; start += per) {
            final int len = (int) Math.min(per, n - start);
            for (int j = 0; j < len; j++) {
                Elements.put(host, c.type(), j, pattern.expected(start + j));
            }
            host.position(0).limit(len * size);
            recv.upload(host, start * size);
            host.clear();
        }
    }

    private static double median(final long[] nanos) {
        final long[] s = nanos.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }
}
