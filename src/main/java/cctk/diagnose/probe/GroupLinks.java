package cctk.diagnose.probe;

import cctk.comm.Communicator;
import cctk.comm.Store;
import cctk.comm.tcp.TcpCommunicator;
import cctk.comm.tcp.TcpOptions;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Opens a diagnosis's sub-communicators over the job's store, each under a key prefix of its own (a group and
 * round never reuse one): a node's ranks alone, and two node leaders on one mode. On the tcp backend a node's
 * ranks meet over loopback, and a pair binds exactly the NICs of its mode (one NIC, or all of them striped), so
 * the bytes go through that NIC and no other; every connection proves the job secret, as every tcp mesh does.
 * <b>Note:</b> threadsafe (immutable); the communicators it opens are not.
 */
class GroupLinks {

    private final Store store;
    private final byte[] secret;
    private final Duration deadline;
    private final boolean multiNode;
    private final Consumer<String> log;

    /**
     * @param multiNode whether the nodes are really distinct hosts (loopback addresses are then refused for pairs)
     */
    GroupLinks(final Store store, final byte[] secret, final Duration deadline, final boolean multiNode,
               final Consumer<String> log) {
        this.store = store;
        this.secret = secret.clone();
        this.deadline = deadline;
        this.multiNode = multiNode;
        this.log = log;
    }

    /**
     * The ranks of one node, {@code index} of {@code size}, over loopback; {@code patience}: how long a rank may
     * wait for another (its leader's pairwise phase), at least the job's deadline.
     */
    Communicator node(final String key, final int index, final int size, final Duration patience) {
        final Duration wait = patience.compareTo(deadline) > 0 ? patience : deadline;
        return TcpCommunicator.connect(new TcpOptions(List.of(), false, wait, TcpOptions.DEFAULT_SOCKET_BUFFER,
                key, secret, log), index, size, store);
    }

    /** The deadline of every other wait. */
    Duration deadline() {
        return deadline;
    }

    /** Two node leaders ({@code index} 0 is the lower node) over exactly {@code nics} (empty: the host's address). */
    Communicator pair(final String key, final int index, final List<String> nics) {
        return TcpCommunicator.connect(new TcpOptions(nics, multiNode, deadline, TcpOptions.DEFAULT_SOCKET_BUFFER,
                key, secret, log), index, 2, store);
    }
}
