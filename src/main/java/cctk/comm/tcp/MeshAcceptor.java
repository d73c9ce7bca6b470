package cctk.comm.tcp;

import cctk.CctkException;
import cctk.comm.JobProof;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * Accepts the higher ranks' connections on every stripe's listening socket with one selector, so one stranger
 * never blocks the real peers: each pending connection gets its own short handshake deadline ({@link
 * #HANDSHAKE_NANOS}, bounded by the mesh deadline) and fixed buffers (about 150 bytes); at most {@link
 * #MAX_PENDING} wait at once, beyond which new ones are closed at once (a real dialer retries). A connection that
 * fails the {@link MeshHello}, stays silent, sends garbage, claims the wrong world or a link already made is
 * dropped and logged once; the first {@link #LOGGED_DROPS} drops get a line each, the rest one count at the end.
 * Descriptor exhaustion on accept pauses accepting (10 ms doubling to 1 s) and is logged once.
 * <b>Note:</b> not threadsafe; one call per mesh.
 */
final class MeshAcceptor {

    static final long HANDSHAKE_NANOS = 5_000_000_000L;
    static final int MAX_PENDING = 64;
    static final int LOGGED_DROPS = 8;
    private static final long MIN_PAUSE_NANOS = 10_000_000L;
    private static final long MAX_PAUSE_NANOS = 1_000_000_000L;

    /** One connection still proving itself. */
    private static final class Pending {
        final SocketChannel channel;
        final int stripe;
        final long deadline;
        final SocketAddress remote;
        final byte[] challenge = JobProof.nonce();
        final ByteBuffer in = ByteBuffer.allocate(MeshHello.HELLO_BYTES);
        ByteBuffer out;
        int peer = -1;

        Pending(final SocketChannel channel, final int stripe, final long deadline, final SocketAddress remote) {
            this.channel = channel;
            this.stripe = stripe;
            this.deadline = deadline;
            this.remote = remote;
            this.out = ByteBuffer.wrap(challenge);
        }
    }

    private final TcpOptions options;
    private final MeshHello hello;
    private final int rank;
    private final int size;
    private final Link[][] links;
    private final long deadline;
    private int drops;
    private int pending;
    private int acceptFailures;
    private long pause = MIN_PAUSE_NANOS;
    private long resumeAt;

    MeshAcceptor(final TcpOptions options, final int rank, final int size, final Link[][] links,
                 final long deadline) {
        this.options = options;
        this.hello = new MeshHello(options.secret(), options.keyPrefix());
        this.rank = rank;
        this.size = size;
        this.links = links;
        this.deadline = deadline;
    }

    /** Fills {@code links[peer][stripe]} for every higher rank and stripe, or throws naming the missing ranks. */
    void acceptAll(final List<ServerSocketChannel> servers) throws IOException {
        final int expected = (size - rank - 1) * servers.size();
        if (expected == 0) {
            return;
        }
        int made = 0;
        final Selector selector = Selector.open();
        try {
            for (int s = 0; s < servers.size(); s++) {
                servers.get(s).configureBlocking(false);
                servers.get(s).register(selector, SelectionKey.OP_ACCEPT, s);
            }
            while (made < expected) {
                final long now = System.nanoTime();
                if (now - deadline >= 0) {
                    throw timedOut(servers);
                }
                selector.select(Math.max(1, (nextWake(selector, now) - now) / 1_000_000L));
                for (final SelectionKey key : selector.selectedKeys()) {
                    made += handle(selector, key);
                }
                selector.selectedKeys().clear();
                expire(selector);
            }
        } finally {
            closePending(selector);
            if (drops > LOGGED_DROPS) {
                options.log().accept("rank " + rank + ": dropped " + (drops - LOGGED_DROPS) + " more connection(s)"
                        + " to its tcp mesh port that did not prove they belong to this job.");
            }
        }
        for (final Link[] row : links) {
            if (row != null) {
                for (final Link l : row) {
                    if (l != null && !l.channel.isBlocking()) {
                        l.channel.configureBlocking(true);
                    }
                }
            }
        }
    }

    /** Closes the strangers still proving themselves, and the selector. */
    private static void closePending(final Selector selector) {
        for (final SelectionKey key : selector.keys()) {
            if (key.isValid() && key.attachment() instanceof Pending p) {
                closeQuietly(p.channel);
            }
        }
        closeQuietly(selector);
    }

    private long nextWake(final Selector selector, final long now) {
        if (resumeAt != 0 && now - resumeAt >= 0) {
            resumeAt = 0;
            for (final SelectionKey key : selector.keys()) {
                if (key.isValid() && key.attachment() instanceof Integer) {
                    key.interestOps(SelectionKey.OP_ACCEPT);
                }
            }
        }
        long wake = deadline;
        if (resumeAt != 0 && resumeAt - wake < 0) {
            wake = resumeAt;
        }
        for (final SelectionKey key : selector.keys()) {
            if (key.isValid() && key.attachment() instanceof Pending p && p.deadline - wake < 0) {
                wake = p.deadline;
            }
        }
        return wake;
    }

    /** 1 when this key completed a link. */
    private int handle(final Selector selector, final SelectionKey key) {
        if (!key.isValid()) {
            return 0;
        }
        if (key.attachment() instanceof Integer stripe) {
            acceptOne(selector, key, stripe);
            return 0;
        }
        final Pending p = (Pending) key.attachment();
        try {
            if (key.isReadable()) {
                if (p.channel.read(p.in) < 0) {
                    drop(p, "it closed the connection before proving it belongs to this job");
                    return 0;
                }
                if (!p.in.hasRemaining() && !verify(p)) {
                    return 0;
                }
            }
            if (key.isValid() && p.out.hasRemaining()) {
                p.channel.write(p.out);
            }
            if (!key.isValid()) {
                return 0;
            }
            if (p.out.hasRemaining()) {
                key.interestOps(SelectionKey.OP_WRITE);
                return 0;
            }
            if (p.peer >= 0) {
                key.cancel();
                pending--;
                return 1;
            }
            key.interestOps(SelectionKey.OP_READ);
            return 0;
        } catch (final IOException e) {
            if (p.peer >= 0) {
                links[p.peer][p.stripe] = null;
            }
            drop(p, "its connection failed during the hello (" + e.getMessage() + ")");
            return 0;
        }
    }

    private void acceptOne(final Selector selector, final SelectionKey key, final int stripe) {
        final SocketChannel channel;
        try {
            channel = ((ServerSocketChannel) key.channel()).accept();
        } catch (final IOException e) {
            acceptFailures++;
            if (acceptFailures == 1) {
                options.log().accept("rank " + rank + ": accepting on its tcp mesh port failed (" + e.getMessage()
                        + "); pausing accepts and retrying; repeats are counted, not logged.");
            }
            key.interestOps(0);
            resumeAt = System.nanoTime() + pause;
            pause = Math.min(MAX_PAUSE_NANOS, pause * 2);
            return;
        }
        if (channel == null) {
            return;
        }
        if (acceptFailures > 1) {
            options.log().accept("rank " + rank + ": accepting works again after " + (acceptFailures - 1)
                    + " more failed accept(s).");
        }
        acceptFailures = 0;
        pause = MIN_PAUSE_NANOS;
        SocketAddress remote = null;
        try {
            remote = channel.getRemoteAddress();
            if (pending >= MAX_PENDING) {
                throw new IOException("too many connections are proving themselves at once");
            }
            channel.configureBlocking(false);
            final long now = System.nanoTime();
            final long end = deadline - now < HANDSHAKE_NANOS ? deadline : now + HANDSHAKE_NANOS;
            final Pending p = new Pending(channel, stripe, end, remote);
            p.channel.write(p.out);
            channel.register(selector, p.out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ, p);
            pending++;
        } catch (final IOException e) {
            dropped(remote, e.getMessage());
            closeQuietly(channel);
        }
    }

    /** Checks a complete hello; on success reserves the link and queues the answer. */
    private boolean verify(final Pending p) {
        final ByteBuffer in = p.in.flip();
        final int peer = in.getInt(MeshHello.RANK_OFFSET);
        final int stripe = in.getInt(MeshHello.STRIPE_OFFSET);
        final int world = in.getInt(MeshHello.WORLD_OFFSET);
        final byte[] nonce = new byte[JobProof.NONCE_BYTES];
        in.get(MeshHello.NONCE_OFFSET, nonce);
        final byte[] mac = new byte[JobProof.PROOF_BYTES];
        in.get(MeshHello.PROOF_OFFSET, mac);
        if (!JobProof.same(mac, hello.dialProof(p.challenge, peer, stripe, world, rank))) {
            drop(p, "it does not prove it knows this job's secret (a stranger, or a rank of another job)");
            return false;
        }
        if (world != size || peer <= rank || peer >= size || stripe != p.stripe) {
            drop(p, "it claims rank " + peer + " of " + world + ", stripe " + stripe + ", which does not fit rank "
                    + rank + " of " + size + " on stripe " + p.stripe);
            return false;
        }
        if (links[peer][stripe] != null) {
            drop(p, "rank " + peer + " is already connected on stripe " + stripe);
            return false;
        }
        p.peer = peer;
        links[peer][stripe] = new Link(peer, stripe, p.channel, "rank " + peer + " (" + p.remote + ")");
        p.out = ByteBuffer.wrap(hello.acceptProof(nonce, rank, stripe, size, peer));
        return true;
    }

    private void expire(final Selector selector) {
        final long now = System.nanoTime();
        for (final SelectionKey key : selector.keys()) {
            if (key.isValid() && key.attachment() instanceof Pending p && now - p.deadline >= 0) {
                if (p.peer >= 0) {
                    links[p.peer][p.stripe] = null;
                }
                drop(p, "it did not finish its hello within " + HANDSHAKE_NANOS / 1_000_000_000L + " s");
            }
        }
    }

    private void drop(final Pending p, final String why) {
        pending--;
        dropped(p.remote, why);
        closeQuietly(p.channel);
    }

    private void dropped(final SocketAddress remote, final String why) {
        drops++;
        if (drops <= LOGGED_DROPS) {
            options.log().accept("rank " + rank + ": dropped a connection to its tcp mesh port from " + remote
                    + ": " + why + ".");
        }
    }

    private CctkException timedOut(final List<ServerSocketChannel> servers) throws IOException {
        final StringBuilder missing = new StringBuilder();
        for (int s = 0; s < servers.size(); s++) {
            final StringBuilder b = new StringBuilder();
            for (int p = rank + 1; p < size; p++) {
                if (links[p][s] == null) {
                    b.append(b.length() == 0 ? "rank " : ", ").append(p);
                }
            }
            if (b.length() > 0) {
                missing.append(missing.length() == 0 ? "" : "; ").append(b).append(" on ")
                        .append(servers.get(s).getLocalAddress());
            }
        }
        return CctkException.environment("rank " + rank + " waited " + options.deadline().toSeconds()
                + " s for higher ranks to connect (" + missing + " missing); they died, stalled or cannot reach"
                + " this host.");
    }

    private static void closeQuietly(final java.io.Closeable c) {
        try {
            c.close();
        } catch (final IOException ignored) {
            // dropping it anyway
        }
    }
}
