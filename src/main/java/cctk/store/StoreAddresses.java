package cctk.store;

import cctk.CctkException;
import cctk.EnvVar;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which local addresses rank 0's store listens on: only those the job's ranks use to reach it, never the wildcard.
 * <ul>
 *   <li>A single-node job (as {@code cctk run}, whose rendezvous host is 127.0.0.1): the addresses of this machine
 *       that the rendezvous host ({@code MASTER_ADDR}, else the first node) resolves to, loopback included (all
 *       ranks run here, so 127.0.0.1, or Debian's 127.0.1.1 for the host's own name, is what they use).</li>
 *   <li>A multi-node job: the addresses of this machine that the name resolves to, without loopback ones, which
 *       other nodes cannot use. When none is left (Debian maps the host's own name to 127.0.1.1 in /etc/hosts),
 *       the address the kernel would use as the source to reach each other node of the job, as its routing table
 *       picks it (a UDP connect, which sends nothing; see connect(2) and ip-route(8)): the address other nodes
 *       see, on the NIC that reaches them. When even that finds nothing, a clear error naming
 *       {@code MASTER_ADDR}.</li>
 *   <li>The layout is unknown (torchrun and Open MPI variables name only the rendezvous host): the multi-node
 *       rule, and when it leaves nothing, the loopback addresses the name resolves to, as the launcher asked.</li>
 * </ul>
 * The spec's NICs are not consulted for the fallback: the who-am-I and demo steps meet without a spec, and the
 * route to the other nodes already names the address on the NIC that reaches them.
 * An address the name resolves to that is not this machine's is never bound (rank 0 checks that the rendezvous
 * host is this machine before it starts the store).
 * <b>Note:</b> threadsafe (stateless).
 */
public final class StoreAddresses {

    /** What the choice asks of the machine; the real one, or a stand-in in tests. */
    public interface Host {
        InetAddress[] resolve(String name) throws UnknownHostException;

        boolean isLocal(InetAddress address);

        /** The source address the kernel picks to reach {@code remote}, or null when there is no route. */
        InetAddress sourceFor(InetAddress remote);
    }

    /** This machine. */
    public static final Host SYSTEM = new Host() {
        @Override
        public InetAddress[] resolve(final String name) throws UnknownHostException {
            return InetAddress.getAllByName(name);
        }

        @Override
        public boolean isLocal(final InetAddress address) {
            try {
                // all of 127/8 is local on Linux (Debian's 127.0.1.1 is on no interface); ::1 only when configured
                return address instanceof Inet4Address && address.isLoopbackAddress()
                        || NetworkInterface.getByInetAddress(address) != null;
            } catch (final SocketException e) {
                return false;
            }
        }

        @Override
        public InetAddress sourceFor(final InetAddress remote) {
            try (DatagramSocket probe = new DatagramSocket()) {
                probe.connect(remote, 9);
                final InetAddress local = probe.getLocalAddress();
                return local == null || local.isAnyLocalAddress() ? null : local;
            } catch (final SocketException | RuntimeException e) {
                return null;
            }
        }
    };

    private StoreAddresses() {
    }

    /** How the job's ranks are spread, as far as the launcher says. */
    public enum Layout {
        /** Every rank on this node. */
        ONE_NODE,
        /** Ranks on several nodes, named in the node list. */
        NODES,
        /** Not known (torchrun and Open MPI list only the rendezvous host). */
        UNKNOWN
    }

    public static List<InetAddress> choose(final String rendezvousHost, final List<String> nodes, final Layout layout,
                                    final Host host) {
        final InetAddress[] resolved;
        try {
            resolved = host.resolve(rendezvousHost);
        } catch (final UnknownHostException e) {
            throw CctkException.environment("rank 0 cannot resolve the rendezvous host '" + rendezvousHost + "'; set "
                    + EnvVar.MASTER_ADDR + " to an address of rank 0's node.", e);
        }
        final Set<InetAddress> out = new LinkedHashSet<>();
        for (final InetAddress a : resolved) {
            if ((a.isLoopbackAddress() ? layout == Layout.ONE_NODE : !a.isAnyLocalAddress()) && host.isLocal(a)) {
                out.add(a);
            }
        }
        if (out.isEmpty() && layout == Layout.NODES) {
            out.addAll(routes(rendezvousHost, nodes, host));
        }
        if (out.isEmpty() && layout == Layout.UNKNOWN) {
            for (final InetAddress a : resolved) {
                if (a.isLoopbackAddress() && host.isLocal(a)) {
                    out.add(a);
                }
            }
        }
        if (out.isEmpty()) {
            throw CctkException.environment("rank 0 found no address of this machine to serve the rendezvous on: '"
                    + rendezvousHost + "' resolves to " + names(resolved) + (layout == Layout.NODES ? ", which other"
                    + " nodes cannot use, and no route to the other nodes names a better one" : "") + ". Set "
                    + EnvVar.MASTER_ADDR + " to an address of rank 0's node that the other nodes"
                    + " reach.");
        }
        return List.copyOf(out);
    }

    /** The kernel's source addresses toward every other node, without loopback ones. */
    private static List<InetAddress> routes(final String rendezvousHost, final List<String> nodes, final Host host) {
        final Set<InetAddress> out = new LinkedHashSet<>();
        for (final String node : new LinkedHashSet<>(nodes)) {
            if (node.equals(rendezvousHost)) {
                continue;
            }
            try {
                for (final InetAddress remote : host.resolve(node)) {
                    if (remote.isLoopbackAddress() || host.isLocal(remote)) {
                        continue;
                    }
                    final InetAddress source = host.sourceFor(remote);
                    if (source != null && !source.isLoopbackAddress()) {
                        out.add(source);
                    }
                }
            } catch (final UnknownHostException e) {
                // a node this machine cannot resolve tells nothing about the route; the others may
            }
        }
        return new ArrayList<>(out);
    }

    /** Opens one listening socket per address, on {@code port} (0: a free one, then the same on the others). */
    static List<ServerSocketChannel> listen(final List<InetAddress> addresses, final int port, final int backlog)
            throws IOException {
        final List<ServerSocketChannel> listeners = new ArrayList<>();
        try {
            int p = port;
            for (final InetAddress a : addresses) {
                final ServerSocketChannel s = ServerSocketChannel.open();
                listeners.add(s);
                s.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                s.bind(new InetSocketAddress(a, p), backlog);
                p = ((InetSocketAddress) s.getLocalAddress()).getPort();
            }
            return listeners;
        } catch (final IOException | RuntimeException e) {
            for (final ServerSocketChannel s : listeners) {
                try {
                    s.close();
                } catch (final IOException ignored) {
                    // the first error is the one reported
                }
            }
            throw e;
        }
    }

    private static String names(final InetAddress[] addresses) {
        final List<String> names = new ArrayList<>();
        for (final InetAddress a : addresses) {
            names.add(a.getHostAddress());
        }
        return String.join(", ", names);
    }
}
