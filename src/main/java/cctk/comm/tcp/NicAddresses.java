package cctk.comm.tcp;

import cctk.CctkException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The local addresses a tcp communicator binds: one per NIC the spec names (its IPv4 address first), or loopback
 * for a single-node job and the host name's address for a multi-node one; loopback is refused across nodes.
 * <b>Note:</b> threadsafe (no state).
 */
final class NicAddresses {

    private NicAddresses() {
    }

    /** One address per stripe: the addresses of the NICs {@code interfaces} names, or the default one. */
    static List<InetAddress> of(final List<String> interfaces, final boolean multiNode) {
        final List<InetAddress> out = new ArrayList<>();
        if (interfaces.isEmpty()) {
            if (!multiNode) {
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
        for (final String name : interfaces) {
            out.add(addressOf(name, multiNode));
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
}
