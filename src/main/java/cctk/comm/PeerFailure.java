package cctk.comm;

import cctk.CctkException;
import cctk.ExitCode;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A collective (or the set-up of its links) ended because of peers: the rank that saw it, what it was doing, how
 * long it waited, and the {@link PeerFault}s it found. Its message is the paragraph the user reads, made here and
 * nowhere else; the sweep's blame reads the values, never the words.
 * <b>Note:</b> immutable.
 */
public final class PeerFailure extends CctkException {

    private static final long serialVersionUID = 1L;

    /** The rank that saw the fault. */
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
     * @param label     a rank's name in the message ({@code rank 3})
     * @param rank      the rank that waited
     * @param seconds   how long
     * @param operation what it was doing, with {@code where} after the faults ({@code " in shared memory"}, or "")
     */
    public static PeerFailure stalled(final IntFunction<String> label, final int rank, final double seconds,
                                      final String operation, final List<PeerFault> faults, final String where,
                                      final Throwable cause) {
        final StringBuilder who = new StringBuilder();
        for (final PeerFault f : faults) {
            who.append(who.length() == 0 ? "" : ", ").append(f.words(label));
        }
        return new PeerFailure(rank, seconds, faults, label.apply(rank) + " waited " + seconds + " s without progress"
            + " during " + operation + " for " + who + where + "; the peer stalled or died (raise the deadline if it"
            + " is only slow).", cause);
    }

    /**
     * {@code rank 0: <what happened> during all_reduce; rank 1 probably died. The job cannot continue.}
     *
     * @param what what the rank saw, from the peer's link or process ({@code rank 1 (10.0.0.2:4000) over eth0 closed
     *             the connection}), words only
     */
    public static PeerFailure died(final IntFunction<String> label, final int rank, final String what,
                                   final String operation, final PeerFault fault, final String advice,
                                   final Throwable cause) {
        return new PeerFailure(rank, Double.NaN, List.of(fault), label.apply(rank) + ": " + what + " during "
            + operation + "; " + label.apply(fault.peer()) + " probably died" + advice + ". The job cannot continue.",
            cause);
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
