package cctk.comm.tcp;

import cctk.CctkException;
import cctk.comm.Handshaking;
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
 * Accepts the higher ranks' connections on every stripe's listening socket with one selector of its own, so one
 * stranger never blocks the real peers. It runs only inside {@link #accept}, while a collective needs connections
 * from higher ranks; between calls, new connections wait in the kernel's backlog and half-done hellos wait where
 * they are. Each pending connection gets its own short handshake deadline ({@link #HANDSHAKE_NANOS}, counted from
 * the start of the call and bounded by its deadline) and fixed buffers (about 150 bytes); at most {@link
 * #MAX_PENDING} wait at once, beyond which the oldest gives way to the newcomer ({@link Handshaking}: a stranger's
 * flood churns its own connections, a real dialer's one-round-trip hello gets in). A connection that
 * fails the {@link MeshHello}, stays silent, sends garbage, claims the wrong world or a link already made is
 * dropped and logged once; the first {@link #LOGGED_DROPS} drops get a line each, the rest a count when the mesh
 * closes. A proven connection from a higher rank that the current call does not wait for is kept too: that rank
 * needs it for a collective this rank has not reached yet. Descriptor exhaustion on accept pauses accepting (10 ms
 * doubling to 1 s) and is logged once.
 * <b>Note:</b> not threadsafe: the communicator's thread.
 */
final class MeshAcceptor {

    static final long HANDSHAKE_NANOS = 5_000_000_000L;
    static final int MAX_PENDING = 1024;
    static final int LOGGED_DROPS = 1;
    private static final long MIN_PAUSE_NANOS = 10_000_000L;
    private static final long MAX_PAUSE_NANOS = 1_000_000_000L;

    /** What becomes of a proven connection (the mesh registers it for transfers). */
    @FunctionalInterface
    interface Made {
        void link(Link link) throws IOException;
    }

    /** One connection still proving itself. */
    private static final class Pending {
        final SocketChannel channel;
        final int stripe;
        long deadline;
        final SocketAddress remote;
        final byte[] challenge = JobProof.nonce();
        final ByteBuffer in = ByteBuffer.allocate(MeshHello.HELLO_BYTES);
        ByteBuffer out;
        int peer = -1;
        boolean proving = true;

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
    private final List<ServerSocketChannel> servers;
    private final Made made;
    private final java.util.function.Supplier<String> operation;
    private Selector selector;
    private long deadline;
    private final Handshaking<Pending> queue = new Handshaking<>(MAX_PENDING, p -> p.proving && p.peer < 0);
    private int drops;
    private int pending;
    private int acceptFailures;
    private long pause = MIN_PAUSE_NANOS;
    private long resumeAt;

    MeshAcceptor(final TcpOptions options, final int rank, final int size, final Link[][] links,
                 final List<ServerSocketChannel> servers, final Made made,
                 final java.util.function.Supplier<String> operation) {
        this.options = options;
        this.hello = new MeshHello(options.secret(), options.keyPrefix());
        this.rank = rank;
        this.size = size;
        this.links = links;
        this.servers = servers;
        this.made = made;
        this.operation = operation;
    }

    /**
     * Accepts until every higher rank among {@code peers[0..n)} is connected on every stripe, by {@code until}
     * (System.nanoTime), or throws naming the missing ranks.
     */
    void accept(final int[] peers, final int n, final long until) throws IOException {
        if (selector == null) {
            selector = Selector.open();
            for (int s = 0; s < servers.size(); s++) {
                servers.get(s).configureBlocking(false);
                servers.get(s).register(selector, SelectionKey.OP_ACCEPT, s);
            }
        }
        this.deadline = until;
        final long now = System.nanoTime();
        for (final SelectionKey key : selector.keys()) { // those that waited for this call get their full time
            if (key.isValid() && key.attachment() instanceof Pending p) {
                p.deadline = deadline - now < HANDSHAKE_NANOS ? deadline : now + HANDSHAKE_NANOS;
            }
        }
        while (!complete(peers, n)) {
            final long t = System.nanoTime();
            if (t - deadline >= 0) {
                throw timedOut(peers, n);
            }
            selector.select(Math.max(1, (nextWake(selector, t) - t) / 1_000_000L));
            for (final SelectionKey key : selector.selectedKeys()) {
                handle(selector, key);
            }
            selector.selectedKeys().clear();
            expire(selector);
        }
    }

    private boolean complete(final int[] peers, final int n) {
        for (int i = 0; i < n; i++) {
            final int p = peers[i];
            if (p > rank) {
                for (final Link l : links[p]) {
                    if (l == null) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** Closes the connections still proving themselves and the selector; logs the count of unlogged drops. */
    void close() {
        if (selector != null) {
            closePending(selector);
            selector = null;
        }
        if (drops > LOGGED_DROPS) {
            options.log().accept(options.label(rank) + ": dropped " + (drops - LOGGED_DROPS) + " more"
                    + " connection(s) to its tcp mesh port that did not prove they belong to this job.");
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

    /** Moves one connection's hello on; a finished one becomes a link. */
    private void handle(final Selector selector, final SelectionKey key) {
        if (!key.isValid()) {
            return;
        }
        if (key.attachment() instanceof Integer stripe) {
            acceptOne(selector, key, stripe);
            return;
        }
        final Pending p = (Pending) key.attachment();
        try {
            if (key.isReadable()) {
                if (p.channel.read(p.in) < 0) {
                    drop(p, "it closed the connection before proving it belongs to this job");
                    return;
                }
                if (!p.in.hasRemaining() && !verify(p)) {
                    return;
                }
            }
            if (key.isValid() && p.out.hasRemaining()) {
                p.channel.write(p.out);
            }
            if (!key.isValid()) {
                return;
            }
            if (p.out.hasRemaining()) {
                key.interestOps(SelectionKey.OP_WRITE);
                return;
            }
            if (p.peer >= 0) {
                key.cancel();
                pending--;
                p.proving = false;
                made.link(new Link(p.peer, p.stripe, p.channel, options.label(p.peer) + " (" + p.remote + ")"));
                return;
            }
            key.interestOps(SelectionKey.OP_READ);
        } catch (final IOException e) {
            drop(p, "its connection failed during the hello (" + cctk.IoErrors.why(e) + ")");
        }
    }

    private void acceptOne(final Selector selector, final SelectionKey key, final int stripe) {
        final SocketChannel channel;
        try {
            channel = ((ServerSocketChannel) key.channel()).accept();
        } catch (final IOException e) {
            acceptFailures++;
            if (acceptFailures == 1) {
                options.log().accept(options.label(rank) + ": accepting on its tcp mesh port failed (" + e.getMessage()
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
            options.log().accept(options.label(rank) + ": accepting works again after " + (acceptFailures - 1)
                    + " more failed accept(s).");
        }
        acceptFailures = 0;
        pause = MIN_PAUSE_NANOS;
        SocketAddress remote = null;
        Pending p = null;
        try {
            remote = channel.getRemoteAddress();
            channel.configureBlocking(false);
            final long now = System.nanoTime();
            final long end = deadline - now < HANDSHAKE_NANOS ? deadline : now + HANDSHAKE_NANOS;
            p = new Pending(channel, stripe, end, remote);
            final Pending oldest = queue.admit(p, pending);
            if (oldest != null) {
                drop(oldest, "it was the oldest of " + MAX_PENDING + " connections proving themselves at once");
            }
            pending++;
            p.channel.write(p.out);
            channel.register(selector, p.out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ, p);
        } catch (final IOException e) {
            if (p != null && p.proving) {
                drop(p, "its connection failed (" + cctk.IoErrors.why(e) + ")");
            } else {
                dropped(remote, cctk.IoErrors.why(e));
                closeQuietly(channel);
            }
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
        if (links[peer][stripe] != null || proving(peer, stripe)) {
            drop(p, options.label(peer) + " is already connected on stripe " + stripe);
            return false;
        }
        p.peer = peer;
        p.out = ByteBuffer.wrap(hello.acceptProof(nonce, rank, stripe, size, peer));
        return true;
    }

    /** Whether another connection has already proven itself as {@code peer}'s {@code stripe} and is being answered. */
    private boolean proving(final int peer, final int stripe) {
        for (final SelectionKey key : selector.keys()) {
            if (key.isValid() && key.attachment() instanceof Pending q && q.peer == peer && q.stripe == stripe) {
                return true;
            }
        }
        return false;
    }

    private void expire(final Selector selector) {
        final long now = System.nanoTime();
        for (final SelectionKey key : selector.keys()) {
            if (key.isValid() && key.attachment() instanceof Pending p && now - p.deadline >= 0) {
                drop(p, "it did not finish its hello within " + HANDSHAKE_NANOS / 1_000_000_000L + " s");
            }
        }
    }

    private void drop(final Pending p, final String why) {
        if (!p.proving) {
            return;
        }
        p.proving = false;
        pending--;
        dropped(p.remote, why);
        closeQuietly(p.channel);
    }

    private void dropped(final SocketAddress remote, final String why) {
        drops++;
        if (drops <= LOGGED_DROPS) {
            options.log().accept(options.label(rank) + ": dropped a connection to its tcp mesh port from " + remote
                    + ": " + why + ".");
        }
    }

    /** The ranks that never connected, as the transfers name peers that stall. */
    private CctkException timedOut(final int[] peers, final int n) throws IOException {
        final java.util.List<cctk.comm.PeerFault> missing = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            final int p = peers[i];
            final StringBuilder on = new StringBuilder();
            for (int s = 0; p > rank && s < servers.size(); s++) {
                if (links[p][s] == null) {
                    on.append(on.length() == 0 ? "" : ", ").append(servers.get(s).getLocalAddress());
                }
            }
            if (on.length() > 0) {
                missing.add(cctk.comm.PeerFault.waitedOn(p, false, null, null, " [no connection to " + on + "]"));
            }
        }
        return cctk.comm.PeerFailure.stalled(options::rankOf, rank, options.deadline().toMillis() / 1000.0,
            operation.get(), missing, "", null);
    }

    private static void closeQuietly(final java.io.Closeable c) {
        try {
            c.close();
        } catch (final IOException ignored) {
            // dropping it anyway
        }
    }
}
