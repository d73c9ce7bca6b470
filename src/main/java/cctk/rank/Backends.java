package cctk.rank;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.bench.Harness;
import cctk.bench.RunContext;
import cctk.comm.Communicator;
import cctk.comm.Store;
import cctk.comm.tcp.TcpCommunicator;
import cctk.comm.tcp.TcpOptions;
import cctk.spec.JobSpec;
import java.time.Duration;

/** Picks the communicator for a backend name and runs the harness on it: the one place that knows them all. */
public final class Backends {

    private Backends() {
    }

    /** A {@link RankMain.BackendRun}: connects {@code backend}'s communicator, runs the sweep, closes it. */
    public static ExitCode run(final String backend, final RankIdentity id, final Store store, final JobSpec spec,
                               final RunContext context) {
        try (Communicator comm = connect(backend, id, store, spec)) {
            return new Harness(comm, store, spec, context).run();
        }
    }

    private static Communicator connect(final String backend, final RankIdentity id, final Store store,
                                        final JobSpec spec) {
        final Duration deadline = Duration.ofSeconds(spec.benchmark().timeoutSeconds());
        if ("tcp".equals(backend)) {
            final boolean multiNode = id.nodes().stream().distinct().count() > 1;
            final TcpOptions options = new TcpOptions(spec.resources().nics(), multiNode, deadline,
                    TcpOptions.DEFAULT_SOCKET_BUFFER, "tcp/w" + id.worldSize() + "/");
            return TcpCommunicator.connect(options, id.rank(), id.worldSize(), store);
        }
        throw new CctkException(ExitCode.ENVIRONMENT, "backend '" + backend + "' is not available in this build of"
                + " cctk; the backends it has are: tcp.");
    }
}
