package cctk.store;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;

/**
 * The server's end of one joined rank. Sends never throw: a peer that cannot be written to is found dead by
 * its reader. <b>Note:</b> sends are threadsafe; one thread reads.
 */
final class StoreConnection {

    final int rank;
    final String host;
    final DataInputStream in;
    private final Socket socket;
    private final DataOutputStream out;

    StoreConnection(final Socket socket, final DataInputStream in, final DataOutputStream out, final int rank,
                    final String host) {
        this.socket = socket;
        this.in = in;
        this.out = out;
        this.rank = rank;
        this.host = host;
    }

    void send(final StoreFrame.Type type, final int requestId, final String message) {
        send(new StoreFrame.Builder().putString(message).frame(type, requestId));
    }

    synchronized void send(final StoreFrame frame) {
        try {
            frame.writeTo(out);
        } catch (final IOException e) {
            close();
        }
    }

    void close() {
        try {
            socket.close();
        } catch (final IOException e) {
            // already gone
        }
    }
}
