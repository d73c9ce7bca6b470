package cctk.coll;

import cctk.comm.HostBuffer;

import cctk.comm.DType;
import java.nio.ByteBuffer;

/**
 * Test helper, the definition element by element: writes inputs and expected results from {@link CasePattern}'s
 * per-element values and counts wrong elements one at a time, with none of {@link PatternStream}'s tapes, tile
 * cursor or bulk compares, so that tests of the fast path compare it with something independent of it.
 */
final class ReferenceCheck {

    private ReferenceCheck() {
    }

    /** Writes this rank's inputs for {@code c} into {@code buf}, one element at a time. */
    static void writeInputs(final Collective coll, final Case c, final HostBuffer buf) {
        final CasePattern p = CasePattern.of(coll, c);
        write(c.type(), p.send().total(), p::input, buf);
    }

    /** Writes the expected result of {@code c} into {@code buf}, one element at a time. */
    static void writeExpected(final Collective coll, final Case c, final HostBuffer buf) {
        final CasePattern p = CasePattern.of(coll, c);
        write(c.type(), p.recv().total(), p::expected, buf);
    }

    /** Elements of {@code recv}'s checked part whose value differs from the definition beyond the tolerance. */
    static long countWrong(final Collective coll, final Case c, final HostBuffer recv) {
        final CasePattern p = CasePattern.of(coll, c);
        final DType t = c.type();
        final ByteBuffer one = ByteBuffer.allocate(8).order(Elements.ORDER);
        long wrong = 0;
        for (long i = 0; i < p.recv().total(); i++) {
            one.clear().limit(t.bytes());
            recv.download(i * t.bytes(), one);
            final double got = Elements.get(one, t, 0);
            final double want = p.expected(i);
            if (!(Math.abs(got - want) <= coll.tolerance(c, want))) {
                wrong++;
            }
        }
        return wrong;
    }

    private static void write(final DType t, final long n, final java.util.function.LongToDoubleFunction value,
                              final HostBuffer buf) {
        final ByteBuffer one = ByteBuffer.allocate(8).order(Elements.ORDER);
        for (long i = 0; i < n; i++) {
            Elements.put(one, t, 0, value.applyAsDouble(i));
            one.position(0).limit(t.bytes());
            buf.upload(one, i * t.bytes());
            one.clear();
        }
    }
}
