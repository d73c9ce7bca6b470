package cctk.store;

import cctk.CctkException;
import cctk.IoErrors;
import cctk.EnvVar;
import cctk.comm.Handshaking;
import cctk.store.StoreFrame.Type;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The store's one thread for connections that have not joined yet: a selector accepts on every listening socket and
 * runs each connection's challenge and join with fixed buffers (a 4-byte length word, then at most {@link
 * StoreFrame#MAX_HANDSHAKE_LENGTH} bytes) and a short deadline ({@link #HANDSHAKE_NANOS}, at most the store's
 * timeout). At most {@code maxPending} connections handshake at once; beyond, the oldest gives way to the newcomer
 * ({@link Handshaking}), so a stranger's flood churns its own connections while a rank's one-round-trip join gets
 * in. Only a connection that proves the job secret is handed to {@link StoreServer#admit}, which gives it a
 * thread; so a stranger costs a descriptor and a few hundred bytes for a few seconds, never a thread. Failed accepts
 * (descriptor exhaustion) pause accepting, 10 ms doubling to 1 s, and are logged at most once a minute with the
 * count of repeats; refusals are logged one line each for the first {@link #LOGGED_REFUSALS}, then counted. No
 * exception or Error leaves the loop while the store is open.
 * <b>Note:</b> one thread ({@code cctk-store-accept}) runs it; {@link #close} may be called from any thread.
 */
final class StoreHandshakes implements Runnable {

    static final long HANDSHAKE_NANOS = 5_000_000_000L;
    static final int MAX_PENDING = 1024;
    static final int LOGGED_REFUSALS = 1;
    private static final long MIN_PAUSE_NANOS = 10_000_000L;
    private static final long MAX_PAUSE_NANOS = 1_000_000_000L;
    private static final long LOG_EVERY_NANOS = 60_000_000_000L;

    /** One connection in its handshake. */
    private static final class Pending {
        final SocketChannel channel;
        final SocketAddress remote;
        final long deadline;
        final byte[] nonce = JoinProof.nonce();
        final ByteBuffer length = ByteBuffer.allocate(4);
        ByteBuffer body;
        ByteBuffer out;
        boolean proving = true;

        Pending(final SocketChannel channel, final SocketAddress remote, final long deadline) {
            this.channel = channel;
            this.remote = remote;
            this.deadline = deadline;
            this.out = new StoreFrame.Builder().putBytes(nonce).frame(Type.CHALLENGE, 0).toBuffer();
        }
    }

    /** A proven join, handed to the server. */
    record Join(SocketChannel channel, String address, int rank, int world, String host, byte[] clientNonce) {
    }

    private final StoreServer server;
    private final Selector selector;
    private final JoinProof proof;
    private final long handshakeNanos;
    private final int maxPending;
    private final Consumer<String> log;
    private final Handshaking<Pending> queue;
    private int pending;
    private long refusals;
    private long failedAccepts;
    private long lastAcceptLog;
    private long troubles;
    private long lastTroubleLog;
    private long pause = MIN_PAUSE_NANOS;
    private long resumeAt;
    private volatile boolean closed;

    StoreHandshakes(final StoreServer server, final List<ServerSocketChannel> listeners, final JoinProof proof,
                    final long timeoutNanos, final int maxPending, final Consumer<String> log) {
        this.server = server;
        this.proof = proof;
        this.handshakeNanos = Math.min(HANDSHAKE_NANOS, timeoutNanos);
        this.maxPending = maxPending;
        this.queue = new Handshaking<>(maxPending, p -> p.proving);
        this.log = log;
        try {
            this.selector = Selector.open();
            for (final ServerSocketChannel l : listeners) {
                l.configureBlocking(false);
                l.register(selector, SelectionKey.OP_ACCEPT);
            }
        } catch (final IOException e) {
            listeners.forEach(StoreHandshakes::closeQuietly);
            throw CctkException.environment("rank 0 cannot watch its store's sockets: " + e.getMessage(), e);
        }
    }

    @Override
    public void run() {
        while (!closed) {
            try {
                step();
            } catch (final ClosedSelectorException e) {
                return;
            } catch (final IOException | RuntimeException | Error e) {
                // one bad round (an Error such as OutOfMemoryError included) must not end the store
                troubles++;
                final long now = System.nanoTime();
                if (!closed && (lastTroubleLog == 0 || now - lastTroubleLog >= LOG_EVERY_NANOS)) {
                    log.accept("cctk store: the accept loop recovered from " + e + (troubles > 1 ? " (" + (troubles
                            - 1) + " earlier time(s) not logged)" : "") + ".");
                    lastTroubleLog = now;
                    troubles = 0;
                }
                LockSupport.parkNanos(MIN_PAUSE_NANOS);
            }
        }
    }

    void close() {
        closed = true;
        try {
            for (final SelectionKey key : selector.keys()) {
                if (key.attachment() instanceof Pending p) {
                    closeQuietly(p.channel);
                }
            }
        } catch (final RuntimeException e) {
            // the loop may be changing the key set; the selector's close below ends it anyway
        }
        closeQuietly(selector);
        if (refusals > LOGGED_REFUSALS) {
            log.accept("cctk store: refused " + (refusals - LOGGED_REFUSALS) + " more connection(s) that did not"
                    + " join (not logged one by one).");
        }
    }

    private void step() throws IOException {
        final long now = System.nanoTime();
        if (resumeAt != 0 && now - resumeAt >= 0) {
            resumeAt = 0;
            for (final SelectionKey key : selector.keys()) {
                if (key.isValid() && key.attachment() == null) {
                    key.interestOps(SelectionKey.OP_ACCEPT);
                }
            }
        }
        long wake = now + 1_000_000_000L;
        if (resumeAt != 0 && resumeAt - wake < 0) {
            wake = resumeAt;
        }
        for (final SelectionKey key : selector.keys()) {
            if (key.attachment() instanceof Pending p && p.deadline - wake < 0) {
                wake = p.deadline;
            }
        }
        selector.select(Math.max(1, (wake - now) / 1_000_000L));
        final List<Join> joins = new ArrayList<>();
        for (final SelectionKey key : selector.selectedKeys()) {
            if (key.isValid() && key.attachment() == null) {
                acceptOne((ServerSocketChannel) key.channel(), key);
            } else if (key.isValid()) {
                final Join j = progress(key, (Pending) key.attachment());
                if (j != null) {
                    joins.add(j);
                }
            }
        }
        selector.selectedKeys().clear();
        expire();
        if (!joins.isEmpty()) {
            selector.selectNow();
            for (final Join j : joins) {
                server.admit(j);
            }
        }
    }

    private void acceptOne(final ServerSocketChannel listener, final SelectionKey key) {
        final SocketChannel channel;
        try {
            channel = listener.accept();
        } catch (final IOException e) {
            failedAccepts++;
            final long now = System.nanoTime();
            if (lastAcceptLog == 0 || now - lastAcceptLog >= LOG_EVERY_NANOS) {
                log.accept("cctk store: accept failed: " + IoErrors.why(e) + "; pausing accepts (up to "
                        + MAX_PAUSE_NANOS / 1_000_000L + " ms at a time)" + (failedAccepts > 1 ? "; "
                        + (failedAccepts - 1) + " earlier failure(s) were not logged" : "") + ".");
                lastAcceptLog = now;
                failedAccepts = 0;
            }
            key.interestOps(0);
            resumeAt = now + pause;
            pause = Math.min(MAX_PAUSE_NANOS, pause * 2);
            return;
        }
        if (channel == null) {
            return;
        }
        pause = MIN_PAUSE_NANOS;
        SocketAddress remote = null;
        Pending p = null;
        try {
            remote = channel.getRemoteAddress();
            channel.configureBlocking(false);
            p = new Pending(channel, remote, System.nanoTime() + handshakeNanos);
            final Pending oldest = queue.admit(p, pending);
            if (oldest != null) {
                drop(oldest, "it was the oldest of " + maxPending + " connections in their handshake at once");
            }
            pending++;
            channel.write(p.out);
            channel.register(selector, p.out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ, p);
        } catch (final IOException e) {
            if (p != null && p.proving) {
                drop(p, "its connection failed (" + IoErrors.why(e) + ")");
            } else {
                refused(remote, IoErrors.why(e));
                closeQuietly(channel);
            }
        }
    }

    /** Advances one handshake; the proven join when it is complete. */
    private Join progress(final SelectionKey key, final Pending p) {
        try {
            if (p.out.hasRemaining()) {
                p.channel.write(p.out);
                key.interestOps(p.out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
                return null;
            }
            final ByteBuffer into = p.body == null ? p.length : p.body;
            if (p.channel.read(into) < 0) {
                drop(p, "it closed the connection before joining");
                return null;
            }
            if (p.body == null && !p.length.hasRemaining()) {
                final int n = p.length.getInt(0);
                if (n < 5 || n > StoreFrame.MAX_HANDSHAKE_LENGTH) {
                    drop(p, "it did not speak the cctk store protocol (a frame of " + n + " bytes)");
                    return null;
                }
                p.body = ByteBuffer.allocate(n);
            }
            if (p.body == null || p.body.hasRemaining()) {
                return null;
            }
            return join(key, p, StoreFrame.parse(p.body.flip()));
        } catch (final IOException e) {
            drop(p, "it did not speak the cctk store protocol (" + IoErrors.why(e) + ")");
            return null;
        }
    }

    private Join join(final SelectionKey key, final Pending p, final StoreFrame join) throws IOException {
        if (join.type() != Type.JOIN) {
            drop(p, "it did not speak the cctk store protocol");
            return null;
        }
        final StoreFrame.Fields f = join.fields();
        final int rank = f.getInt();
        final int world = f.getInt();
        final String host = f.getString();
        final byte[] mac = f.getBytes();
        final byte[] clientNonce = f.getBytes();
        if (!JoinProof.same(mac, proof.rankProof(p.nonce, rank, world))) {
            refuse(p, "it does not know this job's secret (" + EnvVar.CCTK_SECRET
                    + "): a process of another job, or a stranger");
            return null;
        }
        key.cancel();
        pending--;
        p.proving = false;
        return new Join(p.channel, String.valueOf(p.remote), rank, world, host, clientNonce);
    }

    private void expire() {
        final long now = System.nanoTime();
        for (final SelectionKey key : selector.keys()) {
            if (key.isValid() && key.attachment() instanceof Pending p && now - p.deadline >= 0) {
                drop(p, "it did not join within " + handshakeNanos / 1_000_000L + " ms");
            }
        }
    }

    /** Tells the peer why (one write, best effort), then drops it. */
    private void refuse(final Pending p, final String why) {
        try {
            p.channel.write(new StoreFrame.Builder().putString(why).frame(Type.REFUSED, 0).toBuffer());
        } catch (final IOException e) {
            // dropping it anyway
        }
        drop(p, why);
    }

    private void drop(final Pending p, final String why) {
        if (!p.proving) {
            return;
        }
        p.proving = false;
        pending--;
        refused(p.remote, why);
        closeQuietly(p.channel);
    }

    void refused(final SocketAddress remote, final String why) {
        refusals++;
        if (refusals <= LOGGED_REFUSALS) {
            log.accept("cctk store: refused " + remote + ": " + why + ".");
        }
    }

    private static void closeQuietly(final java.io.Closeable c) {
        try {
            c.close();
        } catch (final IOException e) {
            // nothing to add
        }
    }
}
