package cctk.rank;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.bench.Harness;
import cctk.bench.RunContext;
import cctk.comm.Communicator;
import cctk.comm.Store;
import cctk.comm.tcp.TcpCommunicator;
import cctk.comm.tcp.TcpOptions;
import cctk.comm.nccl.NcclSetup;
import cctk.spec.JobSpec;
import cctk.spec.NcclOptions;
import java.time.Duration;
import java.util.List;

/** Picks the communicator for a backend name: the one place that knows them all. */
public final class Backends {

    private Backends() {
    }

    /** A {@link RankMain.BackendRun}: connects {@code backend}'s communicator, runs the sweep, closes it. */
    public static ExitCode run(final String backend, final RankIdentity id, final Store store, final JobSpec spec,
                               final RunContext context) {
        if (spec.nccl().serves(backend)) {
            // loads CUDA and NCCL only now; adds the GPU and transport to the rank's header line
            return new NcclBackendRun(System.getenv()).run(backend, id, store, spec, context);
        }
        final Duration deadline = Duration.ofSeconds(spec.benchmark().timeoutSeconds());
        try (Communicator comm = connect(backend, id, store, spec.resources().nics(), deadline)) {
            return new Harness(comm, store, spec, context).run();
        }
    }

    /**
     * Connects this rank to the others of its step on {@code backend}, meeting them through {@code store}.
     *
     * @param nics     the NICs to use by name (empty: the backend's default)
     * @param deadline how long any wait on a peer may last
     */
    public static Communicator connect(final String backend, final RankIdentity id, final Store store,
                                       final List<String> nics, final Duration deadline) {
        if ("tcp".equals(backend)) {
            final boolean multiNode = id.nodes().stream().distinct().count() > 1;
            final TcpOptions options = new TcpOptions(nics, multiNode, deadline, TcpOptions.DEFAULT_SOCKET_BUFFER,
                    "w" + id.worldSize(), Rendezvous.secret(System.getenv()));
            return TcpCommunicator.connect(options, id.rank(), id.worldSize(), store);
        }
        if ("nccl".equals(backend)) {
            // the spec-less path (cctk demo): default nccl options
            return NcclSetup.open(new NcclSetup.Request(id.rank(), id.worldSize(), id.localRank(), store,
                    "nccl/w" + id.worldSize() + "/", backend, NcclOptions.DEFAULT, deadline, System.getenv()));
        }
        throw new CctkException(ExitCode.ENVIRONMENT, "backend '" + backend + "' is not available in this build of"
                + " cctk; the backends it has are: tcp, and nccl (or the name nccl.backend_name gives it).");
    }
}
