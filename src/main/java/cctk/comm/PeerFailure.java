package cctk.comm;

import cctk.CctkException;
import cctk.ExitCode;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * A collective (or the set-up of its links) ended because of peers: the rank that saw it, what it was doing, how
 * long it waited, and the {@link PeerFault}s it found. Its message is the paragraph the user reads, made here and
 * nowhere else; the sweep's blame reads the values, never the words.
 * <b>Note:</b> immutable.
 */
public final class PeerFailure extends CctkException {

    private static final long serialVersionUID = 1L;

    /** The job's rank that saw the fault. */
    private final int rank;
    /** How long it waited without progress, in seconds; NaN when it did not wait (a peer seen dead). */
    private final double waitedSeconds;
    private final transient List<PeerFault> faults;

    private PeerFailure(final int rank, final double waitedSeconds, final List<PeerFault> faults, final String message,
                        final Throwable cause) {
        super(ExitCode.ENVIRONMENT, message, cause);
        this.rank = rank;
        this.waitedSeconds = waitedSeconds;
        this.faults = List.copyOf(faults);
    }

    /**
     * {@code rank 0 waited 8.0 s without progress during all_reduce for rank 3 (not sending) over eth0; the peer
     * stalled or died (raise the deadline if it is only slow).}
     *
     * @param rankOf    the job's rank of a member of the communicator (a subgroup's members are numbered from 0)
     * @param member    the member that waited
     * @param seconds   how long
     * @param operation what it was doing, with {@code where} after the faults ({@code " in shared memory"}, or "")
     * @param faults    the members at fault, numbered as the communicator numbers them
     */
    public static PeerFailure stalled(final IntUnaryOperator rankOf, final int member, final double seconds,
                                      final String operation, final List<PeerFault> faults, final String where,
                                      final Throwable cause) {
        final List<PeerFault> world = faults.stream().map(f -> f.atRank(rankOf.applyAsInt(f.peer()))).toList();
        final StringBuilder who = new StringBuilder();
        for (final PeerFault f : world) {
            who.append(who.length() == 0 ? "" : ", ").append(f.words());
        }
        final int rank = rankOf.applyAsInt(member);
        return new PeerFailure(rank, seconds, world, "rank " + rank + " waited " + seconds + " s without progress"
            + " during " + operation + " for " + who + where + "; the peer stalled or died (raise the deadline if it"
            + " is only slow).", cause);
    }

    /**
     * {@code rank 0: <what happened> during all_reduce; rank 1 probably died. The job cannot continue.}
     *
     * @param what what the member saw, from the peer's link or process ({@code rank 1 (10.0.0.2:4000) over eth0
     *             closed the connection}), words only
     * @param fault the member at fault, numbered as the communicator numbers it
     */
    public static PeerFailure died(final IntUnaryOperator rankOf, final int member, final String what,
                                   final String operation, final PeerFault fault, final String advice,
                                   final Throwable cause) {
        final PeerFault world = fault.atRank(rankOf.applyAsInt(fault.peer()));
        final int rank = rankOf.applyAsInt(member);
        return new PeerFailure(rank, Double.NaN, List.of(world), "rank " + rank + ": " + what + " during "
            + operation + "; rank " + world.peer() + " probably died" + advice + ". The job cannot continue.", cause);
    }

    /** The rank that saw the fault. */
    public int rank() {
        return rank;
    }

    /** Seconds waited without progress, or NaN. */
    public double waitedSeconds() {
        return waitedSeconds;
    }

    /** The peers at fault, in the order seen. */
    public List<PeerFault> faults() {
        return faults == null ? List.of() : faults;
    }

    /** The first PeerFailure in {@code t}'s chain of causes (itself included), or null. */
    public static PeerFailure in(final Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof PeerFailure p) {
                return p;
            }
        }
        return null;
    }
}
