package cctk.store;

import cctk.CctkException;
import cctk.IoErrors;
import cctk.EnvVar;
import cctk.store.StoreFrame.Type;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Rank 0's side of the rendezvous store: a small TCP key-value server with waits and barriers. Every wait has
 * the deadline given at start; a rank that does not join, does not arrive or disconnects without saying goodbye
 * fails every pending and later request with a message naming it, and the failure is pushed to every rank.
 * It listens only on the addresses it is given ({@link StoreAddresses} picks them: loopback for a local job).
 * Connections that have not joined cost no thread: {@link StoreHandshakes} runs every handshake on one selector
 * thread with fixed buffers and a short deadline, and only a rank that proved the job secret gets a thread here,
 * so at most world size of them. The data (values, waiting gets, barriers) is {@link StoreTable}'s.
 * <b>Note:</b> threadsafe; one thread per joined rank plus the accept and deadline threads, state guarded by the
 * server's monitor.
 */
public final class StoreServer implements AutoCloseable {

    /** Listen backlog (capped by net.core.somaxconn), so strangers waiting to be accepted leave room for ranks. */
    static final int BACKLOG = 4096;
    private final List<ServerSocketChannel> listeners;
    private final int worldSize;
    private final JoinProof proof;
    private final Duration timeout;
    private final Consumer<String> log;
    private final ScheduledExecutorService deadlines;
    private final StoreConnection[] members;
    private final boolean[] departed;
    private final StoreTable table;
    private StoreHandshakes handshakes;
    private String failure;
    /** The rank that disconnected without a goodbye, or -1. */
    private int departedRank = -1;
    private boolean closing;

    private StoreServer(final List<ServerSocketChannel> listeners, final int worldSize, final byte[] secret,
                        final Duration timeout, final Consumer<String> log) {
        this.listeners = listeners;
        this.worldSize = worldSize;
        this.proof = new JoinProof(secret);
        this.timeout = timeout;
        this.log = log;
        this.members = new StoreConnection[worldSize];
        this.departed = new boolean[worldSize];
        this.deadlines = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "cctk-store-deadlines"));
        this.table = new StoreTable(this, worldSize, timeout, deadlines, this::fail);
    }

    /**
     * Listens on {@code port} of each of {@code addresses} (port 0: one free port, the same on all of them) and
     * serves {@code worldSize} ranks; {@code hostLabel} names this host in errors; {@code log} gets refused
     * strangers (rank 0's stderr).
     */
    public static StoreServer start(final String hostLabel, final List<InetAddress> addresses, final int port,
                                    final int worldSize, final byte[] secret, final Duration timeout,
                                    final Consumer<String> log) {
        return start(hostLabel, addresses, port, worldSize, secret, timeout, log, StoreHandshakes.MAX_PENDING);
    }

    static StoreServer start(final String hostLabel, final List<InetAddress> addresses, final int port,
                             final int worldSize, final byte[] secret, final Duration timeout,
                             final Consumer<String> log, final int maxPending) {
        final List<ServerSocketChannel> listeners;
        try {
            listeners = StoreAddresses.listen(addresses, port, BACKLOG);
        } catch (final BindException e) {
            throw CctkException.environment("port " + port + " on " + hostLabel + " is in use: another job? set "
                    + EnvVar.MASTER_PORT + " to a free port.", e);
        } catch (final IOException e) {
            throw CctkException.environment("cannot listen on port " + port + " of " + addresses + " on "
                    + hostLabel + ": " + IoErrors.why(e), e);
        }
        final StoreServer server = new StoreServer(listeners, worldSize, secret, timeout, log);
        server.handshakes = new StoreHandshakes(server, listeners, server.proof, timeout.toNanos(), maxPending, log);
        daemon(server.handshakes, "cctk-store-accept").start();
        server.deadlines.schedule(server::joinDeadline, timeout.toMillis(), TimeUnit.MILLISECONDS);
        return server;
    }

    /** The addresses it listens on. */
    public List<InetSocketAddress> boundAddresses() {
        final List<InetSocketAddress> out = new ArrayList<>();
        for (final ServerSocketChannel s : listeners) {
            try {
                out.add((InetSocketAddress) s.getLocalAddress());
            } catch (final IOException e) {
                // closed: not listening there any more
            }
        }
        return out;
    }

    /** The port it listens on (useful when started on port 0), -1 once closed. */
    public int port() {
        return boundAddresses().stream().mapToInt(InetSocketAddress::getPort).findFirst().orElse(-1);
    }

    /** The rank whose disconnection without a goodbye failed the store, or -1. */
    public synchronized int departed() {
        return departedRank;
    }

    /** The failure that ended the store, or null while it is healthy. */
    public synchronized String failure() {
        return failure;
    }

    /** Waits up to {@code grace} for every joined rank to leave, so closing does not look like a crash to them. */
    public synchronized void awaitDeparture(final Duration grace) throws InterruptedException {
        final long end = System.nanoTime() + grace.toNanos();
        while (failure == null && !allDeparted()) {
            final long left = end - System.nanoTime();
            if (left <= 0) {
                return;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    @Override
    public void close() {
        final List<StoreConnection> open = new ArrayList<>();
        synchronized (this) {
            closing = true;
            for (final StoreConnection c : members) {
                if (c != null) {
                    open.add(c);
                }
            }
        }
        deadlines.shutdownNow();
        handshakes.close();
        listeners.forEach(StoreServer::closeQuietly);
        open.forEach(StoreConnection::close);
    }

    /**
     * Takes a rank that proved the secret (on the accept thread): refuses it when it does not fit the world or its
     * rank already joined, else welcomes it and starts its thread.
     */
    void admit(final StoreHandshakes.Join j) {
        final SocketChannel channel = j.channel();
        final String why;
        synchronized (this) {
            if (j.world() != worldSize || j.rank() < 0 || j.rank() >= worldSize) {
                why = "rank " + j.rank() + " of " + j.world() + " does not fit this world of " + worldSize;
            } else if (members[j.rank()] != null) {
                why = "rank " + j.rank() + " already joined from " + members[j.rank()].host;
            } else if (closing) {
                why = "the store is closing";
            } else {
                why = null;
            }
        }
        try {
            channel.configureBlocking(true);
            final Socket peer = channel.socket();
            peer.setTcpNoDelay(true);
            final DataOutputStream out = new DataOutputStream(new BufferedOutputStream(peer.getOutputStream()));
            if (why != null) {
                handshakes.refused(channel.getRemoteAddress(), why);
                new StoreFrame.Builder().putString(why).frame(Type.REFUSED, 0).writeTo(out);
                closeQuietly(channel);
                return;
            }
            final DataInputStream in = new DataInputStream(new BufferedInputStream(peer.getInputStream()));
            final StoreConnection c = new StoreConnection(peer, in, out, j.rank(), j.host());
            synchronized (this) {
                if (closing || members[j.rank()] != null) {
                    closeQuietly(channel);
                    return;
                }
                members[j.rank()] = c;
            }
            c.send(new StoreFrame.Builder().putBytes(proof.serverProof(j.clientNonce())).frame(Type.WELCOME, 0));
            synchronized (this) {
                if (failure != null) {
                    c.send(Type.FAIL, 0, failure);
                }
            }
            daemon(() -> serve(c), "cctk-store-rank-" + c.rank).start();
        } catch (final IOException e) {
            closeQuietly(channel);
        } catch (final OutOfMemoryError | RuntimeException e) {
            // no thread left for it (a thread limit): it cannot be served, and the job learns why
            closeQuietly(channel);
            fail("rank 0 could not start a thread to serve rank " + j.rank() + " (" + IoErrors.why(e) + "); the"
                    + " process or user thread limit (ulimit -u) is reached.");
        }
    }

    private void serve(final StoreConnection c) {
        try {
            while (true) {
                final StoreFrame f = StoreFrame.readFrom(c.in, StoreFrame.MAX_LENGTH);
                if (f.type() == Type.BYE) {
                    depart(c);
                    return;
                }
                handle(c, f);
            }
        } catch (final IOException e) {
            disconnected(c);
        } finally {
            c.close();
        }
    }

    private synchronized void handle(final StoreConnection c, final StoreFrame f) throws IOException {
        if (failure != null) {
            c.send(Type.FAIL, f.requestId(), failure);
            return;
        }
        table.counted(c.rank, 9 + f.body().length);
        final StoreFrame.Fields fields = f.fields();
        switch (f.type()) {
            case SET -> table.set(c, f.requestId(), fields.getString(), fields.getBytes());
            case GET -> table.get(c, f.requestId(), fields.getString());
            case BARRIER -> table.barrier(c, f.requestId(), fields.getString());
            case DROP -> table.drop(c, f.requestId(), fields.getString());
            default -> throw new IOException("unexpected " + f.type() + " frame from rank " + c.rank);
        }
    }

    private synchronized void joinDeadline() {
        final List<Integer> missing = new ArrayList<>();
        for (int r = 0; r < worldSize; r++) {
            if (members[r] == null && !departed[r]) {
                missing.add(r);
            }
        }
        if (!missing.isEmpty()) {
            fail(ranks(missing) + " did not join within " + seconds() + " (rendezvous on port " + port() + ").");
        }
    }

    private synchronized void depart(final StoreConnection c) {
        departed[c.rank] = true;
        notifyAll();
    }

    private synchronized void disconnected(final StoreConnection c) {
        if (!closing && !departed[c.rank]) {
            departedRank = failure == null ? c.rank : departedRank;
            fail("rank " + c.rank + " (host " + c.host + ") disconnected from the rendezvous store: it exited or "
                    + "crashed.");
        }
        departed[c.rank] = true;
        notifyAll();
    }

    /** Requests waiting here for a key or a barrier (tests wait on it instead of sleeping). */
    synchronized int waiting() {
        return table.waiting();
    }

    /** Keys the store holds now. */
    public synchronized int keys() {
        return table.keys();
    }

    /** Bytes of keys and values the store holds now. */
    public synchronized long heldBytes() {
        return table.heldBytes();
    }

    /** Requests {@code rank} has made of the store so far, and the bytes they carried: {requests, bytes}. */
    public synchronized long[] traffic(final int rank) {
        return table.traffic(rank);
    }

    /** Fails every pending and later request with {@code why}, and pushes it to every rank. */
    private synchronized void fail(final String why) {
        if (failure != null || closing) {
            return;
        }
        failure = why;
        log.accept("cctk store: " + why);
        table.failAll(why);
        for (int r = 0; r < worldSize; r++) {
            if (members[r] != null && !departed[r]) {
                members[r].send(new StoreFrame.Builder().putString(why).putInt(departedRank).frame(Type.FAIL, 0));
            }
        }
        notifyAll();
    }

    private boolean allDeparted() {
        for (int r = 0; r < worldSize; r++) {
            if (members[r] != null && !departed[r]) {
                return false;
            }
        }
        return true;
    }

    private String seconds() {
        return timeout.toSeconds() + " s";
    }

    static String ranks(final List<Integer> ranks) {
        if (ranks.size() == 1) {
            return "rank " + ranks.get(0);
        }
        final StringBuilder s = new StringBuilder("ranks ");
        for (int i = 0; i < ranks.size() && i < 16; i++) {
            s.append(i == 0 ? "" : ", ").append(ranks.get(i));
        }
        return ranks.size() > 16 ? s + " and " + (ranks.size() - 16) + " more" : s.toString();
    }

    private static Thread daemon(final Runnable r, final String name) {
        final Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private static void closeQuietly(final java.io.Closeable s) {
        try {
            s.close();
        } catch (final IOException e) {
            // nothing to add
        }
    }
}
