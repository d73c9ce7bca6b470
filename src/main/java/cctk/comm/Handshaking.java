package cctk.comm;

import java.util.ArrayDeque;
import java.util.function.Predicate;

/**
 * The connections a listening socket is still proving, oldest first, for admission that a flood cannot win: when a
 * new connection arrives with {@code cap} already proving themselves, the <em>oldest</em> one gives way, not the
 * newcomer. A stranger who holds silent connections and reconnects each one the moment it is closed then only
 * churns its own connections, while a real peer, whose hello takes one round trip, is never the oldest for long.
 * (Refusing newcomers at a fixed cap let a persistent stranger keep every slot: each freed slot went to its
 * reconnect, and the real ranks, backing off, never got one.)
 * <b>Note:</b> not threadsafe: the acceptor's thread.
 *
 * @param <T> the acceptor's record of one connection
 */
public final class Handshaking<T> {

    private final ArrayDeque<T> order = new ArrayDeque<>();
    private final Predicate<T> proving;
    private final int cap;

    /** {@code proving}: whether a connection is still in its handshake (not yet joined, dropped or evicted). */
    public Handshaking(final int cap, final Predicate<T> proving) {
        this.cap = cap;
        this.proving = proving;
    }

    /**
     * Adds {@code connection}, of {@code before} connections already proving themselves; returns the oldest one still
     * proving itself when {@code before} reached the cap (the caller drops it), else null.
     */
    public T admit(final T connection, final int before) {
        T oldest = null;
        if (before >= cap) {
            while (!order.isEmpty() && oldest == null) {
                final T head = order.poll();
                oldest = proving.test(head) ? head : null;
            }
        }
        while (!order.isEmpty() && !proving.test(order.peek())) {
            order.poll();
        }
        order.add(connection);
        return oldest;
    }
}
