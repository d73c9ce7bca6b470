package cctk.comm;

import java.util.ArrayList;
import java.util.List;

/**
 * One peer a rank found at fault, as a value: which rank, what it did (died, did not send, did not read, could not
 * be reached), over which NIC, and on which host that NIC was down. It is made where the fault is seen (the tcp
 * transfers and mesh, the shared-memory waiter), carried by {@link PeerFailure}, posted to rank 0 in the form
 * {@link #encode} writes, and judged there by the sweep's blame; words are made from it only in {@link #words}.
 * <b>Note:</b> threadsafe (immutable).
 *
 * @param peer   the rank at fault: its rank in the job once {@link PeerFailure} made it (a communicator of a
 *               subgroup numbers its members from 0)
 * @param kind   what it did
 * @param nic    the interface of the link to it, or null (shared memory, or not known)
 * @param downOn the host on which that interface was down, or null when it was up
 * @param detail what else the rank saw, appended to its words as is ({@code " [no connection to 10.0.0.2:4000]"}),
 *               or null
 */
public record PeerFault(int peer, Kind kind, String nic, String downOn, String detail) {

    /** What the peer did, as the rank that waited on it saw it. */
    public enum Kind {
        /** Its connection closed, its process is gone, or it left its group. */
        DIED("probably died"),
        /** The rank waited for data it never sent. */
        NOT_SENDING("(not sending)"),
        /** The rank waited for it to take data it never read. */
        NOT_READING("(not reading)"),
        /** Connecting to it failed: it died, or its address is not reachable from here. */
        UNREACHABLE("could not be reached");

        private final String words;

        Kind(final String words) {
            this.words = words;
        }

        /** True for a peer that was waited on (alive, or not known to be dead). */
        public boolean waitedOn() {
            return this == NOT_SENDING || this == NOT_READING;
        }
    }

    public PeerFault {
        if (peer < 0 || kind == null) {
            throw new IllegalArgumentException("a peer fault needs a rank and a kind");
        }
    }

    /** A peer that was waited on in {@code direction} over {@code nic} (null: shared memory). */
    public static PeerFault waitedOn(final int peer, final boolean reading, final String nic, final String downOn,
                                     final String detail) {
        return new PeerFault(peer, reading ? Kind.NOT_READING : Kind.NOT_SENDING, nic, downOn, detail);
    }

    /** This fault of the member a communicator numbers {@code peer}, as rank {@code worldRank} of the job. */
    public PeerFault atRank(final int worldRank) {
        return new PeerFault(worldRank, kind, nic, downOn, detail);
    }

    /** {@code rank 2 (not sending) over eth1 (DOWN on host node2)}. */
    public String words() {
        final StringBuilder sb = new StringBuilder("rank ").append(peer).append(' ').append(kind.words);
        if (nic != null) {
            sb.append(" over ").append(nic);
            if (downOn != null) {
                sb.append(" (DOWN on host ").append(downOn).append(')');
            }
        }
        if (detail != null) {
            sb.append(detail);
        }
        return sb.toString();
    }

    /** One line: {@code fault <peer> <kind> <nic or -> <down-on or ->} (names are interface and host names). */
    public String encode() {
        return "fault " + peer + " " + kind.name() + " " + token(nic) + " " + token(downOn);
    }

    /** The faults among {@code text}'s lines that {@link #encode} wrote; other lines are ignored. */
    public static List<PeerFault> decodeAll(final String text) {
        final List<PeerFault> out = new ArrayList<>();
        for (final String line : text.split("\n")) {
            final String[] t = line.split(" ");
            if (t.length == 5 && t[0].equals("fault")) {
                try {
                    out.add(new PeerFault(Integer.parseInt(t[1]), Kind.valueOf(t[2]), untoken(t[3]), untoken(t[4]),
                        null));
                } catch (final IllegalArgumentException e) {
                    // not a line of ours: a rank posts only what encode wrote
                }
            }
        }
        return out;
    }

    private static String token(final String s) {
        return s == null || s.isEmpty() || s.contains(" ") || s.contains("\n") ? "-" : s;
    }

    private static String untoken(final String s) {
        return s.equals("-") ? null : s;
    }
}
