package cctk.rank;

import cctk.store.StoreAddresses;
import cctk.store.StoreClient;
import cctk.store.StoreServer;

import cctk.CctkException;
import cctk.EnvVar;
import cctk.Environment;
import cctk.comm.Store;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * How the ranks of a job meet: rank 0 serves the store on the rendezvous port of the addresses {@link
 * StoreAddresses} picks, every rank (rank 0 too, on the first of them) joins it as a client. Closing on rank 0
 * waits a little for the others to leave first.
 * <b>Note:</b> threadsafe, as {@link Store}.
 */
public final class Rendezvous implements Store {

    private final StoreServer server;
    private final StoreClient client;
    private final Duration grace;

    private Rendezvous(final StoreServer server, final StoreClient client, final Duration grace) {
        this.server = server;
        this.client = client;
        this.grace = grace;
    }

    /**
     * Joins the job's store as {@code id}; on rank 0 starts it first. Every wait is bounded by {@code timeout};
     * {@code log} receives rank 0's notes (refused strangers, failures).
     */
    public static Rendezvous join(final RankIdentity id, final byte[] secret, final String myHost,
                                  final Duration timeout, final Consumer<String> log) {
        StoreServer server = null;
        String host = id.rendezvousHost();
        if (id.rank() == 0) {
            checkLocal(id, myHost);
            server = StoreServer.start(id.rendezvousHost(), addresses(id, StoreAddresses.SYSTEM),
                    id.rendezvousPort(), id.worldSize(), secret, timeout, log);
            host = server.boundAddresses().get(0).getAddress().getHostAddress();
        }
        try {
            final int port = server != null ? server.port() : id.rendezvousPort();
            final StoreClient client = StoreClient.connect(host, port, id.rank(), id.worldSize(), myHost, secret,
                    timeout);
            return new Rendezvous(server, client, timeout);
        } catch (final RuntimeException e) {
            if (server != null) {
                server.close();
            }
            throw e;
        }
    }

    /** The job secret from {@code CCTK_SECRET}; throws CctkException(ENVIRONMENT) when it is missing. */
    public static byte[] secret(final Environment env) {
        final String s = env.optional(EnvVar.CCTK_SECRET);
        if (s == null) {
            throw CctkException.environment(EnvVar.CCTK_SECRET + " is not set. Ranks prove they"
                    + " belong to the job with it; 'cctk run' and the sbatch scripts cctk renders export a random"
                    + " one. Under another launcher export the same random value to every rank.");
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Where rank 0's store listens (empty on other ranks). */
    public List<InetSocketAddress> storeAddresses() {
        return server == null ? List.of() : server.boundAddresses();
    }

    /** Called once when the store fails (a rank died, a deadline passed, rank 0 went away). */
    public void onFailure(final Consumer<String> listener) {
        client.onFailure(listener);
    }

    /**
     * Rank 0 asks its own store first: the failure it pushes reaches rank 0's client over loopback a moment later,
     * and a signal (Slurm ending the step of a crashed task) can come in between.
     */
    @Override
    public String failure() {
        final String here = server == null ? null : server.failure();
        return here != null ? here : client.failure();
    }

    @Override
    public int departed() {
        return server != null && server.failure() != null ? server.departed() : client.departed();
    }

    /**
     * Says goodbye to the store at once, without waiting for anyone: for a process about to halt (a signal), so
     * that the store records this rank as gone, not as crashed, and names no dead rank for it.
     */
    public void farewell() {
        client.close();
    }

    @Override
    public void set(final String key, final byte[] value) {
        client.set(key, value);
    }

    @Override
    public byte[] get(final String key) {
        return client.get(key);
    }

    @Override
    public void drop(final String prefix) {
        client.drop(prefix);
    }

    @Override
    public void barrier(final String name) {
        client.barrier(name);
    }

    @Override
    public void close() {
        client.close();
        if (server != null) {
            try {
                server.awaitDeparture(grace);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                server.close();
            }
        }
    }

    /** This host's name for messages: Slurm's node name when {@code env} has it, else the kernel's. */
    public static String localHostName(final Environment env) {
        final String slurm = env.optional(EnvVar.SLURMD_NODENAME);
        if (slurm != null) {
            return slurm;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (final UnknownHostException e) {
            return "localhost";
        }
    }

    /** Rank 0 must run where the others will look for it (srun without -m block may place it elsewhere). */
    private static void checkLocal(final RankIdentity id, final String myHost) {
        final InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(id.rendezvousHost());
        } catch (final UnknownHostException e) {
            throw CctkException.environment("rank 0 cannot resolve the rendezvous host '" + id.rendezvousHost()
                    + "'; set " + EnvVar.MASTER_ADDR + " to an address of rank 0's node.", e);
        }
        for (final InetAddress a : addresses) {
            try {
                if (a.isLoopbackAddress() || a.isAnyLocalAddress() || NetworkInterface.getByInetAddress(a) != null) {
                    return;
                }
            } catch (final SocketException e) {
                // try the next address
            }
        }
        throw CctkException.environment("rank 0 runs on " + myHost + ", but the rendezvous host '"
                + id.rendezvousHost() + "' is not an address of this machine, so the other ranks would look for"
                + " rank 0 elsewhere. Start the step with srun --distribution=block, or set "
                + EnvVar.MASTER_ADDR + " to rank 0's node.");
    }

    /** The addresses to listen on for {@code id}'s rendezvous. */
    private static java.util.List<java.net.InetAddress> addresses(final RankIdentity id,
                                                              final StoreAddresses.Host host) {
        final boolean listed = id.source() == RankIdentity.Source.SLURM
                || id.source() == RankIdentity.Source.LAUNCHER;
        final StoreAddresses.Layout layout = !listed ? StoreAddresses.Layout.UNKNOWN
                : id.nodes().stream().distinct().count() > 1 ? StoreAddresses.Layout.NODES
                : StoreAddresses.Layout.ONE_NODE;
        return StoreAddresses.choose(id.rendezvousHost(), id.nodes(), layout, host);
    }
}
