package cctk.comm.tcp;

import cctk.CctkException;
import cctk.comm.JobProof;
import cctk.comm.Store;
import java.io.IOException;
import java.io.InputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Builds the full mesh: every rank listens on one port per NIC, publishes "host:port" per NIC in the store, connects
 * to every lower rank (one connection per NIC, bound to that NIC's address) and accepts every higher rank.
 * Every connection proves it belongs to the job with the {@link MeshHello} (a challenge-response over the job
 * secret) before it counts as a rank's; {@link MeshAcceptor} drops strangers without disturbing the run. The
 * listening sockets bind only the stripes' addresses (loopback for a single-node job), never the wildcard.
 */
final class TcpMesh {

    private TcpMesh() {
    }

    /** Links indexed [peer][stripe]; the row of this rank is null. Blocking channels, not yet registered. */
    static Link[][] connect(final TcpOptions options, final int rank, final int size, final Store store) {
        final long deadline = System.nanoTime() + options.deadline().toNanos();
        final List<InetAddress> local = localAddresses(options);
        final int stripes = local.size();
        final Link[][] links = new Link[size][];
        final List<ServerSocketChannel> servers = new ArrayList<>();
        try {
            final StringBuilder endpoints = new StringBuilder();
            for (final InetAddress address : local) {
                final ServerSocketChannel server = ServerSocketChannel.open();
                servers.add(server);
                server.bind(new InetSocketAddress(address, 0), size * stripes + MeshAcceptor.MAX_PENDING);
                final InetSocketAddress bound = (InetSocketAddress) server.getLocalAddress();
                endpoints.append(endpoints.length() == 0 ? "" : ",")
                        .append(bound.getAddress().getHostAddress()).append('|').append(bound.getPort());
            }
            store.set(key(options, rank), endpoints.toString().getBytes(StandardCharsets.UTF_8));
            for (int peer = 0; peer < rank; peer++) {
                links[peer] = dial(options, rank, size, peer, local, store, deadline);
            }
            for (int peer = rank + 1; peer < size; peer++) {
                links[peer] = new Link[stripes];
            }
            new MeshAcceptor(options, rank, size, links, deadline).acceptAll(servers);
            for (int peer = rank + 1; peer < size; peer++) {
                for (final Link l : links[peer]) {
                    tune(l.channel, options);
                }
            }
            return links;
        } catch (final IOException e) {
            closeAll(links);
            throw CctkException.environment("rank " + rank + " on " + hostName() + " could not build its tcp"
                    + " connections: " + e.getMessage() + ".", e);
        } catch (final RuntimeException e) {
            closeAll(links);
            throw e;
        } finally {
            for (final ServerSocketChannel server : servers) {
                closeQuietly(server);
            }
        }
    }

    private static String key(final TcpOptions options, final int rank) {
        return endpointsPrefix(options) + rank;
    }

    /** Where the ranks publish their endpoints in the store. */
    static String endpointsPrefix(final TcpOptions options) {
        return options.keyPrefix() + "/tcp/endpoints/";
    }

    private static Link[] dial(final TcpOptions options, final int rank, final int size, final int peer,
                               final List<InetAddress> local, final Store store, final long deadline)
            throws IOException {
        final String[] endpoints = new String(store.get(key(options, peer)), StandardCharsets.UTF_8).split(",");
        if (endpoints.length != local.size()) {
            throw CctkException.environment("rank " + rank + " uses " + local.size() + " NIC(s) but rank " + peer
                    + " published " + endpoints.length + "; every rank must name the same number of interfaces.");
        }
        final MeshHello hello = new MeshHello(options.secret(), options.keyPrefix());
        final Link[] row = new Link[local.size()];
        for (int s = 0; s < row.length; s++) {
            final String[] hostPort = endpoints[s].split("\\|");
            final InetSocketAddress remote = new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
            row[s] = new Link(peer, s, dialOne(options, rank, size, peer, s, local, remote, hello, deadline),
                    "rank " + peer + " (" + remote + ")");
        }
        return row;
    }

    /**
     * One proven connection to {@code peer}'s stripe {@code s}; retries (20 ms doubling to 1 s) while the acceptor
     * closes the connection before its challenge, as it does when busy with strangers.
     */
    private static SocketChannel dialOne(final TcpOptions options, final int rank, final int size, final int peer,
                                         final int s, final List<InetAddress> local, final InetSocketAddress remote,
                                         final MeshHello hello, final long deadline) {
        long backoff = 20_000_000L;
        while (true) {
            SocketChannel channel = null;
            try {
                channel = SocketChannel.open();
                tune(channel, options);
                if (!options.interfaces().isEmpty()) {
                    channel.bind(new InetSocketAddress(local.get(s), 0));
                }
                channel.socket().connect(remote, remainingMillis(deadline, rank, peer));
                channel.socket().setSoTimeout(remainingMillis(deadline, rank, peer));
                final InputStream in = channel.socket().getInputStream();
                final byte[] challenge = in.readNBytes(MeshHello.CHALLENGE_BYTES);
                if (challenge.length < MeshHello.CHALLENGE_BYTES) {
                    closeQuietly(channel);
                    LockSupport.parkNanos(Math.min(backoff, Math.max(0, deadline - System.nanoTime())));
                    backoff = Math.min(1_000_000_000L, backoff * 2);
                    remainingMillis(deadline, rank, peer);
                    continue;
                }
                final byte[] nonce = JobProof.nonce();
                final ByteBuffer out = hello.hello(challenge, rank, s, size, peer, nonce);
                while (out.hasRemaining()) {
                    channel.write(out);
                }
                final byte[] answer = in.readNBytes(MeshHello.ANSWER_BYTES);
                if (!JobProof.same(answer, hello.acceptProof(nonce, peer, s, size, rank))) {
                    throw CctkException.environment("rank " + rank + " connected to " + remote + ", published by"
                            + " rank " + peer + " (stripe " + s + "), but the other end did not prove it belongs to"
                            + " this job; rank " + peer + " may have died and another process taken its port.");
                }
                channel.socket().setSoTimeout(0);
                return channel;
            } catch (final IOException e) {
                closeQuietly(channel);
                throw CctkException.environment("rank " + rank + " could not connect to rank " + peer + " at "
                        + remote + " (stripe " + s + "): " + e.getMessage() + ". Is rank " + peer + " alive and is"
                        + " the address reachable from " + hostName() + "?", e);
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

    private static int remainingMillis(final long deadline, final int rank, final int peer) {
        final long left = (deadline - System.nanoTime()) / 1_000_000L;
        if (left <= 0) {
            throw CctkException.environment("rank " + rank + " ran out of time building its tcp connections"
                    + (peer >= 0 ? " (at rank " + peer + ")" : "") + ".");
        }
        return (int) Math.min(Integer.MAX_VALUE, left);
    }

    /** One address per stripe: the named NICs' addresses, or the default one. */
    static List<InetAddress> localAddresses(final TcpOptions options) {
        final List<InetAddress> out = new ArrayList<>();
        if (options.interfaces().isEmpty()) {
            if (!options.multiNode()) {
                out.add(InetAddress.getLoopbackAddress());
                return out;
            }
            final InetAddress self;
            try {
                self = InetAddress.getLocalHost();
            } catch (final UnknownHostException e) {
                throw CctkException.environment("host " + hostName() + " cannot resolve its own name (" + e.getMessage()
                        + "); name the NIC to use for a multi-node tcp job.", e);
            }
            refuseLoopback(self, "the address of its host name (" + self + ")");
            out.add(self);
            return out;
        }
        for (final String name : options.interfaces()) {
            out.add(addressOf(name, options.multiNode()));
        }
        return out;
    }

    private static InetAddress addressOf(final String name, final boolean multiNode) {
        final NetworkInterface nic;
        try {
            nic = NetworkInterface.getByName(name);
            if (nic == null) {
                throw CctkException.environment("host " + hostName() + " has no network interface '" + name
                        + "' (it has: " + interfaceNames() + "); fix the tcp interface list in the spec.");
            }
            if (!nic.isUp()) {
                throw CctkException.environment("network interface '" + name + "' on host " + hostName()
                        + " is down.");
            }
        } catch (final SocketException e) {
            throw CctkException.environment("host " + hostName() + " cannot inspect network interface '" + name
                    + "': " + e.getMessage(), e);
        }
        final List<InetAddress> addresses = Collections.list(nic.getInetAddresses());
        InetAddress chosen = null;
        for (final InetAddress a : addresses) {
            if (a instanceof Inet4Address && chosen == null) {
                chosen = a;
            }
        }
        if (chosen == null && !addresses.isEmpty()) {
            chosen = addresses.get(0);
        }
        if (chosen == null) {
            throw CctkException.environment("network interface '" + name + "' on host " + hostName()
                    + " has no IP address.");
        }
        if (multiNode) {
            refuseLoopback(chosen, "interface '" + name + "'");
        }
        return chosen;
    }

    private static void refuseLoopback(final InetAddress address, final String what) {
        if (address.isLoopbackAddress()) {
            throw CctkException.environment("this job spans several nodes, but on host " + hostName() + " " + what
                    + " is a loopback address (" + address.getHostAddress() + "), which other nodes cannot reach;"
                    + " name a real NIC (for example eth0 or ib0) in the tcp interface list.");
        }
    }

    private static String interfaceNames() {
        try {
            final List<String> names = new ArrayList<>();
            for (final NetworkInterface n : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                names.add(n.getName());
            }
            return String.join(", ", names);
        } catch (final SocketException e) {
            return "unknown";
        }
    }

    static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (final UnknownHostException e) {
            return "localhost";
        }
    }

    static void closeAll(final Link[][] links) {
        for (final Link[] row : links) {
            if (row != null) {
                for (final Link l : row) {
                    if (l != null) {
                        closeQuietly(l.channel);
                    }
                }
            }
        }
    }

    private static void closeQuietly(final java.io.Closeable c) {
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
