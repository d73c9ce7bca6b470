package cctk.rank;

import cctk.comm.Communicator;
import cctk.comm.ForwardingCommunicator;

/**
 * A communicator under the backend name the spec gave it ({@code tcp-flat}), whose header line says why it was chosen
 * ("flat tcp: hosts hold 3, 1 ranks; the hierarchical algorithms need the same number on every host, in blocks"):
 * everything else is the wrapped one's.
 * <b>Note:</b> not threadsafe, as the wrapped communicator.
 */
final class NotedCommunicator extends ForwardingCommunicator {

    private final String backend;
    private final String note;

    /** {@code c} named {@code backend}; {@code note} (null: none) goes before its transports. */
    NotedCommunicator(final Communicator c, final String backend, final String note) {
        super(c);
        this.backend = backend;
        this.note = note;
    }

    @Override
    public String transports() {
        final String t = delegate.transports();
        if (note == null) {
            return t;
        }
        return note + (t == null ? "" : "; " + t);
    }

    @Override
    public String backend() {
        return backend;
    }
}
