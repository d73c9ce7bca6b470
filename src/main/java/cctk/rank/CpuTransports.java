package cctk.rank;

import cctk.CctkException;
import cctk.lifecycle.EarlyEnd;
import cctk.comm.Communicator;
import cctk.comm.Store;
import cctk.comm.shm.HierarchicalCommunicator;
import cctk.comm.shm.ShmCommunicator;
import cctk.comm.shm.ShmOptions;
import cctk.comm.tcp.TcpCommunicator;
import cctk.comm.tcp.TcpOptions;
import cctk.spec.TcpSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The CPU backends' transports, chosen from where the ranks find themselves ({@link HostLayout}):
 * <ul>
 *   <li>{@code tcp-flat}: TCP between every pair of ranks (loopback on one host), as before shared memory;</li>
 *   <li>{@code tcp} on one host: shared memory among all ranks ({@link ShmCommunicator}); with {@code tcp.shm: off},
 *       TCP over loopback;</li>
 *   <li>{@code tcp} across hosts: {@link HierarchicalCommunicator}, shared memory inside each host and TCP between
 *       one leader per host, striped over the spec's NICs, for all-reduce, all-gather, reduce-scatter, broadcast,
 *       reduce and all-to-all, and flat TCP among all ranks (connected on first use) for alltoallv and sendrecv;
 *       where every host does not hold the same number of ranks in blocks, or with {@code tcp.algorithm: flat} or
 *       {@code tcp.shm: off}, flat TCP for everything, and the header line says why.</li>
 * </ul>
 * <b>Note:</b> threadsafe (immutable).
 */
final class CpuTransports {

    /** The backend that is TCP between every pair, whatever the spec's {@code tcp:} section says. */
    static final String FLAT = "tcp-flat";

    private final byte[] secret;
    private final String hostKey;

    CpuTransports(final byte[] secret, final String hostKey) {
        this.secret = secret.clone();
        this.hostKey = hostKey;
    }

    /** Where a backend of a world keeps its keys in the store; rank 0 drops them when every rank has closed. */
    static String prefix(final String backend, final int world) {
        return "w" + world + "/" + backend + "/";
    }

    Communicator connect(final String backend, final RankIdentity id, final Store store, final List<String> nics,
                         final Duration deadline, final TcpSettings tcp) {
        final String prefix = prefix(backend, id.worldSize());
        final HostLayout layout = HostLayout.find(store, prefix, id.rank(), id.worldSize(), hostKey);
        final boolean multiHost = layout.hosts() > 1;
        final TcpOptions flat = new TcpOptions(nics, multiHost, deadline, TcpOptions.DEFAULT_SOCKET_BUFFER,
                prefix + "flat", secret);
        if (FLAT.equals(backend) || tcp.shm() == TcpSettings.Shm.OFF) {
            return new NotedCommunicator(TcpCommunicator.connect(flat, id.rank(), id.worldSize(), store), backend,
                    null);
        }
        final ShmOptions shm = ShmOptions.local(deadline, prefix + "shm", secret).named(backend);
        // a rank that halts on a signal or its launcher's death closes nothing: its segment files go all the same
        EarlyEnd.beforeHalt("shm", ShmCommunicator::releaseFiles);
        if (!multiHost) {
            // shared memory uses no NIC, but a spec that names one that is missing is wrong all the same
            TcpCommunicator.checkInterfaces(nics);
            return ShmCommunicator.connect(shm, id.rank(), id.worldSize(), store);
        }
        if (tcp.algorithm() == TcpSettings.Algorithm.FLAT) {
            return new NotedCommunicator(TcpCommunicator.connect(flat, id.rank(), id.worldSize(), store), backend,
                    "flat tcp (tcp.algorithm: flat)");
        }
        if (!layout.blocks()) {
            final String why = "hosts hold " + layout.counts().toString().replaceAll("[\\[\\]]", "") + " ranks;"
                    + " the hierarchical algorithms need the same number on every host, in blocks (world rank ="
                    + " host x ranks per host + local rank, as srun --distribution=block places them)";
            if (tcp.algorithm() == TcpSettings.Algorithm.HIERARCHICAL) {
                throw CctkException.usage("tcp.algorithm is hierarchical, but " + why + ".");
            }
            return new NotedCommunicator(TcpCommunicator.connect(flat, id.rank(), id.worldSize(), store), backend,
                    "flat tcp: " + why);
        }
        final int perHost = layout.perHost();
        final List<Integer> leaders = new ArrayList<>();
        for (int h = 0; h < layout.hosts(); h++) {
            leaders.add(h * perHost);
        }
        final TcpOptions between = new TcpOptions(nics, true, deadline, TcpOptions.DEFAULT_SOCKET_BUFFER,
                prefix + "leaders", secret).namingRanks(leaders);
        return HierarchicalCommunicator.connect(shm, id.rank(), id.worldSize(), perHost, store,
                host -> TcpCommunicator.connect(between, host, layout.hosts(), store),
                TcpCommunicator.connect(flat, id.rank(), id.worldSize(), store));
    }
}
