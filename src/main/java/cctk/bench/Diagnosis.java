package cctk.bench;

import cctk.comm.PeerFailure;
import cctk.comm.PeerFault;
import java.util.List;

/**
 * What one rank says about the end of its sweep, as values: whether a signal stopped it, how long it waited, the
 * peers it found at fault ({@link PeerFault}, from the {@link PeerFailure} its communicator raised), and its own
 * paragraph for the user. Ranks post it to rank 0 in the form {@link #encode} writes; {@link Blame} judges the
 * values and never reads the words.
 * <b>Note:</b> threadsafe (immutable).
 *
 * @param stopped       true when a signal, not a fault, stopped the rank
 * @param waitedSeconds how long it waited without progress, or NaN
 * @param faults        the peers it found at fault
 * @param departed      the rank its rendezvous store lost without a goodbye ({@link cctk.comm.Store#departed}), or -1
 * @param text          its paragraph (the cause file's words)
 */
record Diagnosis(boolean stopped, double waitedSeconds, List<PeerFault> faults, int departed, String text) {

    private static final String HEAD = "cctk-diagnosis 1";
    private static final String TEXT = "text ";

    Diagnosis {
        faults = List.copyOf(faults);
        text = text == null ? "" : text;
    }

    /** The diagnosis of {@code e}, whose paragraph (store notice included) is {@code text}. */
    static Diagnosis of(final Throwable e, final int departed, final String text) {
        final PeerFailure p = PeerFailure.in(e);
        return p == null ? new Diagnosis(false, Double.NaN, List.of(), departed, text)
            : new Diagnosis(false, p.waitedSeconds(), p.faults(), departed, text);
    }

    /** A rank that a signal stopped, for {@code text}'s reason. */
    static Diagnosis stopped(final int departed, final String text) {
        return new Diagnosis(true, Double.NaN, List.of(), departed, text);
    }

    /** One line per value, the paragraph last. */
    String encode() {
        final StringBuilder sb = new StringBuilder(HEAD).append("\nstopped ").append(stopped).append("\nwaited ")
            .append(waitedSeconds).append("\ndeparted ").append(departed).append('\n');
        faults.forEach(f -> sb.append(f.encode()).append('\n'));
        return sb.append(TEXT).append(text).toString();
    }

    /**
     * What {@link #encode} wrote; anything else (a rank of an older cctk, or a post cut short) is a diagnosis of
     * words alone, from which Blame takes nothing but the silence it is not.
     */
    static Diagnosis decode(final String posted) {
        if (posted == null || !posted.startsWith(HEAD + "\n")) {
            return new Diagnosis(false, Double.NaN, List.of(), -1, posted);
        }
        final int at = posted.indexOf("\n" + TEXT);
        final String head = at < 0 ? posted : posted.substring(0, at);
        final String text = at < 0 ? "" : posted.substring(at + 1 + TEXT.length());
        boolean stopped = false;
        double waited = Double.NaN;
        int departed = -1;
        for (final String line : head.split("\n")) {
            try {
                if (line.equals("stopped true")) {
                    stopped = true;
                } else if (line.startsWith("waited ")) {
                    waited = Double.parseDouble(line.substring("waited ".length()));
                } else if (line.startsWith("departed ")) {
                    departed = Integer.parseInt(line.substring("departed ".length()));
                }
            } catch (final NumberFormatException e) {
                // a value cut short counts as unknown
            }
        }
        return new Diagnosis(stopped, waited, PeerFault.decodeAll(head), departed, text);
    }
}
