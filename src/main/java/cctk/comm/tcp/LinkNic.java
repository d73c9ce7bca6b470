package cctk.comm.tcp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;

/**
 * Which network interface carries a tcp link: the words the fault messages and the header line use to name the NIC.
 * <b>Note:</b> threadsafe (no state).
 */
final class LinkNic {

    private LinkNic() {
    }

    /**
     * " over NIC" for a link: the interface that holds its local address (what carried the traffic), and
     * " (DOWN on host H)" when that interface is down here. Empty when the link has no local address.
     */
    /** The fault of {@code link}'s peer, of {@code kind}, with the link's interface and where it is down. */
    static cctk.comm.PeerFault fault(final Link link, final cctk.comm.PeerFault.Kind kind) {
        final String name = name(link);
        String down = null;
        try {
            final NetworkInterface nic = name == null ? null : NetworkInterface.getByName(name);
            down = nic == null || nic.isUp() ? null : hostName();
        } catch (final IOException e) {
            down = null;
        }
        return new cctk.comm.PeerFault(link.peer, kind, name, down, null);
    }

    static String via(final Link link) {
        final String name = name(link);
        if (name == null) {
            return "";
        }
        try {
            final NetworkInterface nic = NetworkInterface.getByName(name);
            return " over " + name + (nic == null || nic.isUp() ? "" : " (DOWN on host " + hostName() + ")");
        } catch (final IOException e) {
            return " over " + name;
        }
    }

    /**
     * The interface that carries the link: the loopback interface when the peer's address is one of this host's
     * own (Linux routes traffic to a local address over loopback, whichever NIC holds it), else the interface of
     * the link's local address; its address when no interface holds it; null when unknown.
     */
    static String name(final Link link) {
        try {
            final InetSocketAddress local = (InetSocketAddress) link.channel.getLocalAddress();
            final InetSocketAddress remote = (InetSocketAddress) link.channel.getRemoteAddress();
            if (local == null) {
                return null;
            }
            if (remote != null && (remote.getAddress().isLoopbackAddress()
                    || NetworkInterface.getByInetAddress(remote.getAddress()) != null)) {
                final NetworkInterface lo = NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
                return lo == null ? "loopback" : lo.getName();
            }
            final NetworkInterface nic = NetworkInterface.getByInetAddress(local.getAddress());
            return nic == null ? local.getAddress().getHostAddress() : nic.getName();
        } catch (final IOException | ClassCastException e) {
            return null;
        }
    }

    /**
     * The connected peers of {@code links} grouped by the interfaces that carry them, peers named by
     * {@code rankOf}: "tcp over eth0,eth1 to ranks 2,3; tcp over lo to rank 1", or "tcp: no connection yet".
     */
    static String transports(final Link[][] links, final java.util.function.IntUnaryOperator rankOf) {
        final java.util.Map<String, java.util.List<Integer>> byNics = new java.util.TreeMap<>();
        for (final Link[] row : links) {
            if (row == null || row.length == 0 || row[0] == null) {
                continue;
            }
            final java.util.Set<String> nics = new java.util.TreeSet<>();
            for (final Link l : row) {
                final String n = l == null ? null : name(l);
                nics.add(n == null ? "?" : n);
            }
            byNics.computeIfAbsent(String.join(",", nics), k -> new java.util.ArrayList<>())
                    .add(rankOf.applyAsInt(row[0].peer));
        }
        if (byNics.isEmpty()) {
            return "tcp: no connection yet";
        }
        final StringBuilder sb = new StringBuilder();
        byNics.forEach((nics, ranks) -> sb.append(sb.length() == 0 ? "" : "; ").append("tcp over ").append(nics)
                .append(" to ").append(cctk.comm.RankList.of(ranks.stream().mapToInt(Integer::intValue).toArray(),
                        ranks.size())));
        return sb.toString();
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (final IOException e) {
            return "?";
        }
    }
}
