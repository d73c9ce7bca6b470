package cctk.comm.tcp;

import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/** One nonblocking connection to a peer: stripe {@code stripe} of the peer pair, registered with the selector. */
final class Link {
    final int peer;
    final int stripe;
    final SocketChannel channel;
    final String describe;
    SelectionKey key;
    /** Interest bits wanted for the next blocking wait (reset after each wait). */
    int wanted;

    Link(final int peer, final int stripe, final SocketChannel channel, final String describe) {
        this.peer = peer;
        this.stripe = stripe;
        this.channel = channel;
        this.describe = describe;
    }
}
