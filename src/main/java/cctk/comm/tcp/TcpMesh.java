package cctk.comm.tcp;

import cctk.CctkException;
import cctk.comm.JobProof;
import cctk.comm.Store;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The connections of a tcp communicator, made when an algorithm first needs them: every rank listens on one port
 * per NIC (kept open while the communicator lives) and publishes "host|port" per NIC in the store; {@link #ensure}
 * connects the pairs of a peer set that are not connected yet, the higher rank dialling the lower one (one
 * connection per NIC, bound to that NIC's address), the lower one accepting. Every rank calls it with a symmetric
 * set (q is in rank p's set exactly when p is in q's) at the same point of the same collective, so both ends of a
 * missing pair are there: each rank dials its missing lower peers in ascending order, then accepts its missing
 * higher ones, and by induction from rank 0 (which only accepts) nobody waits forever. A connection that arrives for
 * a later collective is accepted and kept. Every connection proves it belongs to the job with the {@link MeshHello}
 * before it counts as a rank's; {@link MeshAcceptor} drops strangers without disturbing the run. The listening
 * sockets bind only the stripes' addresses (loopback for a single-node job), never the wildcard.
 * <b>Note:</b> not threadsafe: the communicator's thread.
 */
final class TcpMesh implements AutoCloseable {

    /**
     * Listen backlog (the kernel caps it at net.core.somaxconn): deep enough that strangers' connections waiting
     * while no collective accepts do not fill it and make the kernel drop a real rank's SYN (a 1 s retransmit).
     */
    static final int BACKLOG = 4096;
    /** The longest wait between a dialer's tries. */
    static final long MAX_RETRY_NANOS = 200_000_000L;
    final Link[][] links;
    final int stripes;
    private final TcpOptions options;
    private final int rank;
    private final int size;
    private final Store store;
    private final List<InetAddress> local;
    private final List<ServerSocketChannel> servers;
    private final Selector selector;
    private final MeshAcceptor acceptor;
    private final MeshHello hello;
    /** Counts the links made so far (for the transfers, which tune new ones). */
    private int made;
    /** The collective that needs the connections, for messages. */
    private String operation = "setup";

    private TcpMesh(final TcpOptions options, final int rank, final int size, final Store store,
                    final List<InetAddress> local, final List<ServerSocketChannel> servers, final Selector selector) {
        this.options = options;
        this.rank = rank;
        this.size = size;
        this.store = store;
        this.local = local;
        this.servers = servers;
        this.selector = selector;
        this.stripes = local.size();
        this.links = new Link[size][];
        for (int p = 0; p < size; p++) {
            links[p] = p == rank ? null : new Link[stripes];
        }
        this.hello = new MeshHello(options.secret(), options.keyPrefix());
        this.acceptor = new MeshAcceptor(options, rank, size, links, servers, this::adopt, () -> operation);
    }

    /** Opens the listening sockets and publishes their endpoints; connects nobody yet. */
    static TcpMesh open(final TcpOptions options, final int rank, final int size, final Store store) {
        final List<InetAddress> local = localAddresses(options);
        final List<ServerSocketChannel> servers = new ArrayList<>();
        Selector selector = null;
        try {
            final StringBuilder endpoints = new StringBuilder();
            for (final InetAddress address : local) {
                final ServerSocketChannel server = ServerSocketChannel.open();
                servers.add(server);
                server.bind(new InetSocketAddress(address, 0), BACKLOG);
                final InetSocketAddress bound = (InetSocketAddress) server.getLocalAddress();
                endpoints.append(endpoints.length() == 0 ? "" : ",")
                        .append(bound.getAddress().getHostAddress()).append('|').append(bound.getPort());
            }
            selector = Selector.open();
            final TcpMesh mesh = new TcpMesh(options, rank, size, store, local, servers, selector);
            store.set(key(options, rank), endpoints.toString().getBytes(StandardCharsets.UTF_8));
            return mesh;
        } catch (final IOException e) {
            servers.forEach(TcpMesh::closeQuietly);
            closeQuietly(selector);
            throw CctkException.environment(options.label(rank) + " on " + NicAddresses.hostName() + " could not"
                    + " open its tcp listening sockets: " + cctk.IoErrors.why(e) + ".", e);
        } catch (final RuntimeException e) {
            servers.forEach(TcpMesh::closeQuietly);
            closeQuietly(selector);
            throw e;
        }
    }

    /** The selector the transfers wait on; every link is registered with it (interest 0) once made. */
    Selector selector() {
        return selector;
    }

    /** Names the running collective in messages (a constant string). */
    void operation(final String name) {
        this.operation = name;
    }

    /** Links made so far; grows when {@link #ensure} connects more. */
    int made() {
        return made;
    }

    private static String key(final TcpOptions options, final int rank) {
        return endpointsPrefix(options) + rank;
    }

    /** Where the ranks publish their endpoints in the store. */
    static String endpointsPrefix(final TcpOptions options) {
        return options.keyPrefix() + "/tcp/endpoints/";
    }

    /**
     * Connects every pair of this rank and a peer among {@code peers[0..n)} that is not connected yet (a collective
     * step: every rank calls it with its side of one symmetric set). Allocates nothing when all are connected.
     */
    void ensure(final int[] peers, final int n) {
        boolean missingHigher = false;
        boolean missingLower = false;
        for (int i = 0; i < n; i++) {
            final int p = peers[i];
            if (p != rank && !connected(p)) {
                missingHigher |= p > rank;
                missingLower |= p < rank;
            }
        }
        if (!missingHigher && !missingLower) {
            return;
        }
        final long deadline = System.nanoTime() + options.deadline().toNanos();
        try {
            for (int p = 0; missingLower && p < rank; p++) { // ascending: see the class comment
                if (!connected(p) && contains(peers, n, p)) {
                    dial(p, deadline);
                }
            }
            if (missingHigher) {
                acceptor.accept(peers, n, deadline);
            }
        } catch (final IOException e) {
            throw CctkException.environment(options.label(rank) + " on " + NicAddresses.hostName() + " could not"
                    + " connect to its peers: " + cctk.IoErrors.why(e) + ".", e);
        }
    }

    /** Whether every stripe to {@code peer} is connected. */
    boolean connected(final int peer) {
        final Link[] row = links[peer];
        for (int s = 0; s < row.length; s++) {
            if (row[s] == null) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(final int[] peers, final int n, final int p) {
        for (int i = 0; i < n; i++) {
            if (peers[i] == p) {
                return true;
            }
        }
        return false;
    }

    /** A connection made and proven (dialled or accepted): nonblocking, tuned, registered with the selector. */
    private void adopt(final Link l) throws IOException {
        l.channel.configureBlocking(false);
        tune(l.channel, options);
        l.key = l.channel.register(selector, 0);
        links[l.peer][l.stripe] = l;
        made++;
    }

    private void dial(final int peer, final long deadline) throws IOException {
        final String[] endpoints = new String(store.get(key(options, peer)), StandardCharsets.UTF_8).split(",");
        if (endpoints.length != local.size()) {
            throw CctkException.environment(options.label(rank) + " uses " + local.size() + " NIC(s) but "
                    + options.label(peer) + " published " + endpoints.length + "; every rank must name the same"
                    + " number of interfaces.");
        }
        for (int s = 0; s < stripes; s++) {
            final String[] hostPort = endpoints[s].split("\\|");
            final InetSocketAddress remote = new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
            final SocketChannel channel = dialOne(peer, s, remote, deadline);
            try {
                adopt(new Link(peer, s, channel, options.label(peer) + " (" + remote + ")"));
            } catch (final IOException e) {
                closeQuietly(channel);
                throw e;
            }
        }
    }

    /**
     * One proven connection to {@code peer}'s stripe {@code s}; retries (5 ms doubling to {@value
     * #MAX_RETRY_NANOS} ns, each wait jittered by ±50 %) while the acceptor closes the connection before its
     * challenge, as it does when a flood of strangers makes it drop its oldest connections.
     */
    private SocketChannel dialOne(final int peer, final int s, final InetSocketAddress remote, final long deadline) {
        long backoff = 5_000_000L;
        while (true) {
            SocketChannel channel = null;
            try {
                channel = SocketChannel.open();
                tune(channel, options);
                if (!options.interfaces().isEmpty()) {
                    channel.bind(new InetSocketAddress(local.get(s), 0));
                }
                channel.socket().connect(remote, remainingMillis(deadline, peer));
                channel.socket().setSoTimeout(remainingMillis(deadline, peer));
                final InputStream in = channel.socket().getInputStream();
                final byte[] challenge = in.readNBytes(MeshHello.CHALLENGE_BYTES);
                if (challenge.length < MeshHello.CHALLENGE_BYTES) {
                    closeQuietly(channel);
                    final long jittered = backoff / 2 + ThreadLocalRandom.current().nextLong(backoff);
                    LockSupport.parkNanos(Math.min(jittered, Math.max(0, deadline - System.nanoTime())));
                    backoff = Math.min(MAX_RETRY_NANOS, backoff * 2);
                    remainingMillis(deadline, peer);
                    continue;
                }
                final byte[] nonce = JobProof.nonce();
                final ByteBuffer out = hello.hello(challenge, rank, s, size, peer, nonce);
                while (out.hasRemaining()) {
                    channel.write(out);
                }
                final byte[] answer = in.readNBytes(MeshHello.ANSWER_BYTES);
                if (!JobProof.same(answer, hello.acceptProof(nonce, peer, s, size, rank))) {
                    throw CctkException.environment(options.label(rank) + " connected to " + remote + ", published"
                            + " by " + options.label(peer) + " (stripe " + s + "), but the other end did not prove"
                            + " it belongs to this job; " + options.label(peer) + " may have died and another"
                            + " process taken its port.");
                }
                channel.socket().setSoTimeout(0);
                return channel;
            } catch (final java.net.SocketTimeoutException e) {
                closeQuietly(channel);
                throw cctk.comm.PeerFailure.stalled(options::rankOf, rank, options.deadline().toMillis() / 1000.0,
                        String.valueOf(operation), List.of(cctk.comm.PeerFault.waitedOn(peer, false, null, null,
                        ", which did not answer its connection at " + remote + " (stripe " + s + ")")), "", e);
            } catch (final IOException e) {
                closeQuietly(channel);
                throw cctk.comm.PeerFailure.died(options::rankOf, rank, "connecting to " + options.label(peer)
                        + " at " + remote + " (stripe " + s + ") failed", operation + " (" + cctk.IoErrors.why(e)
                        + ")", new cctk.comm.PeerFault(peer, cctk.comm.PeerFault.Kind.UNREACHABLE, null, null, null),
                        ", or the address is not reachable from " + NicAddresses.hostName(), e);
            } catch (final RuntimeException e) {
                closeQuietly(channel);
                throw e;
            }
        }
    }

    private static void tune(final SocketChannel channel, final TcpOptions options) throws IOException {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        if (options.socketBufferBytes() > 0) {
            channel.setOption(StandardSocketOptions.SO_SNDBUF, options.socketBufferBytes());
            channel.setOption(StandardSocketOptions.SO_RCVBUF, options.socketBufferBytes());
        }
    }

    private int remainingMillis(final long deadline, final int peer) {
        final long left = (deadline - System.nanoTime()) / 1_000_000L;
        if (left <= 0) {
            throw CctkException.environment(options.label(rank) + " ran out of time connecting to "
                    + options.label(peer) + ".");
        }
        return (int) Math.min(Integer.MAX_VALUE, left);
    }

    /** One address per stripe: the named NICs' addresses, or the default one. */
    static List<InetAddress> localAddresses(final TcpOptions options) {
        return NicAddresses.of(options.interfaces(), options.multiNode());
    }

    /** Closes every link, the listening sockets and the selector. */
    @Override
    public void close() {
        acceptor.close();
        for (final Link[] row : links) {
            for (int s = 0; row != null && s < row.length; s++) {
                if (row[s] != null) {
                    closeQuietly(row[s].channel);
                }
            }
        }
        servers.forEach(TcpMesh::closeQuietly);
        closeQuietly(selector);
    }

    static void closeQuietly(final java.io.Closeable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (final IOException ignored) {
            // closing after a failure: the first error is the one reported
        }
    }
}
