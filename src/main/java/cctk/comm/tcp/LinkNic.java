package cctk.comm.tcp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;

/** Which network interface carries a tcp link: the words the fault messages use to name the NIC. */
final class LinkNic {

    private LinkNic() {
    }

    /**
     * " over NIC" for a link: the interface that holds its local address (what carried the traffic), and
     * " (DOWN on host H)" when that interface is down here. Empty when the link has no local address.
     */
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

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (final IOException e) {
            return "?";
        }
    }
}
