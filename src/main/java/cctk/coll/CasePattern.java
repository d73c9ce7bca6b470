package cctk.coll;

/**
 * The pattern of one case on this rank: its {@link Period}, the {@link Blocks} of the send and receive buffers,
 * and so the value of every element. Reductions take {@link ExactValues#input} and {@link ExactValues#reduced};
 * other collectives move {@link ExactValues#data}, whose phase alone (origin included) says where it belongs. The
 * per-element methods are the definition, for tests and diagnostics; {@link PatternStream} is the fast path.
 * Immutable.
 */
public final class CasePattern {

    private final Case c;
    private final Period period;
    private final Blocks send;
    private final Blocks recv;

    private CasePattern(final Case c, final Period period, final Blocks send, final Blocks recv) {
        this.c = c;
        this.period = period;
        this.send = send;
        this.recv = recv;
    }

    /** The pattern of {@code coll} for {@code c}: the same period on every rank (it depends on shared counts). */
    public static CasePattern of(final Collective coll, final Case c) {
        final Period p = Period.of(c.world(), coll.origins(c.world()), c.layout().count());
        return new CasePattern(c, p, coll.sendBlocks(c), coll.recvBlocks(c));
    }

    public Period period() {
        return period;
    }

    public Blocks send() {
        return send;
    }

    public Blocks recv() {
        return recv;
    }

    /** Whether inputs and results are the same function of the phase (data that is moved, not reduced). */
    public boolean moved() {
        return c.op() == null;
    }

    /** This rank's input at phase {@code u}. */
    public double inputAt(final int u) {
        if (moved()) {
            return ExactValues.data(u, c.seed());
        }
        return ExactValues.input(c.op(), c.type(), c.world(), c.rank(), u, c.seed());
    }

    /** The result at phase {@code u}. */
    public double expectedAt(final int u) {
        if (moved()) {
            return ExactValues.data(u, c.seed());
        }
        return ExactValues.reduced(c.op(), c.type(), c.world(), u, c.seed());
    }

    /** Element {@code index} of this rank's send buffer. */
    public double input(final long index) {
        return inputAt(phase(send, index));
    }

    /** The exact value of receive element {@code index} (index &lt; {@code recv().total()}). */
    public double expected(final long index) {
        return expectedAt(phase(recv, index));
    }

    private int phase(final Blocks blocks, final long index) {
        final int b = blocks.blockOf(index);
        return period.phase(blocks.origin(b), index - blocks.start(b));
    }
}
