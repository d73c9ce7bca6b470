package cctk.rank;

import cctk.CctkException;
import cctk.EnvVar;
import cctk.Environment;
import cctk.ExitCode;
import cctk.bench.Harness;
import cctk.bench.RunContext;
import cctk.bench.SweepResult;
import cctk.comm.BackendModule;
import cctk.comm.Communicator;
import cctk.comm.Store;
import cctk.comm.nccl.NcclConfig;
import cctk.comm.nccl.NcclLibraries;
import cctk.comm.nccl.NcclSetup;
import cctk.spec.JobSpec;
import cctk.spec.TcpSettings;
import java.time.Duration;
import java.util.List;

/**
 * Picks the communicator for a backend name: the one place that knows them all, and that turns the spec and the
 * environment into each backend's own configuration.
 * <b>Note:</b> threadsafe (immutable).
 */
public final class Backends implements RankMain.BackendRun {

    /** The backend on PyTorch's c10d Gloo, in a module of its own ({@link Modules}). */
    static final String GLOO = "gloo";

    private final Environment env;

    /** The backends of a process whose environment is {@code env}. */
    public Backends(final Environment env) {
        this.env = env;
    }

    /** Connects {@code backend}'s communicator, runs the sweep, closes it. */
    @Override
    public SweepResult run(final String backend, final RankIdentity id, final Store store, final JobSpec spec,
                           final RunContext context) {
        if (spec.nccl().serves(backend)) {
            // loads CUDA and NCCL only now; adds the GPU and transport to the rank's header line
            return new NcclBackendRun(env).run(backend, id, store, spec, context);
        }
        final Duration deadline = Duration.ofSeconds(spec.benchmark().timeoutSeconds());
        final boolean gloo = GLOO.equals(backend);
        final SweepResult result;
        try (Communicator comm = gloo ? gloo(id, store, spec.resources().nics(), context, deadline)
                : connect(backend, id, store, spec.resources().nics(), deadline, spec.tcp())) {
            result = new Harness(comm, store, spec, context).sweep();
        }
        // every rank has closed: nobody reads the backend's keys (endpoints, hosts, shared-memory cards) any more
        store.barrier("closed/" + backend);
        if (id.rank() == 0) {
            store.drop(gloo ? glooPrefix(id) : CpuTransports.prefix(backend, id.worldSize()));
        }
        return result;
    }

    /**
     * Connects this rank to the others of its step on {@code backend}, meeting them through {@code store}.
     *
     * @param nics     the NICs to use by name (empty: the backend's default)
     * @param deadline how long any wait on a peer may last
     */
    public Communicator connect(final String backend, final RankIdentity id, final Store store,
                                final List<String> nics, final Duration deadline) {
        return connect(backend, id, store, nics, deadline, TcpSettings.DEFAULT);
    }

    /** {@link #connect(String, RankIdentity, Store, List, Duration)} with the spec's {@code tcp:} section. */
    public Communicator connect(final String backend, final RankIdentity id, final Store store,
                                final List<String> nics, final Duration deadline, final TcpSettings tcp) {
        if ("tcp".equals(backend) || CpuTransports.FLAT.equals(backend)) {
            return new CpuTransports(Rendezvous.secret(env), HostLayout.hostKey(Rendezvous.localHostName(env)))
                    .connect(backend, id, store, nics, deadline, tcp);
        }
        if ("nccl".equals(backend)) {
            // the spec-less path (cctk demo): default nccl options
            return NcclSetup.open(new NcclSetup.Request(id.rank(), id.worldSize(), id.localRank(), store,
                    "nccl/w" + id.worldSize() + "/", backend, ncclConfig(NcclConfig.DEFAULT.library(),
                    NcclConfig.DEFAULT.devices(), NcclConfig.DEFAULT.timing()), deadline, env));
        }
        throw new CctkException(ExitCode.ENVIRONMENT, "backend '" + backend + "' is not available in this build of"
                + " cctk; the backends it has are: tcp, tcp-flat, gloo and nccl (or the name nccl.backend_name gives"
                + " it).");
    }

    /**
     * Loads the gloo module (only now: its libraries are large) and connects its communicator: Gloo on the spec's
     * NICs, or on loopback when every rank is on this host; its rendezvous file in the output directory.
     */
    private Communicator gloo(final RankIdentity id, final Store store, final List<String> nics,
                              final RunContext context, final Duration deadline) {
        final BackendModule module = Modules.gloo(env);
        final String host = id.nodes().size() <= 1 ? "127.0.0.1" : Rendezvous.localHostName(env);
        return module.connect(new BackendModule.Request(id.rank(), id.worldSize(), store, glooPrefix(id), nics,
                host, context.outputDir(), NcclLibraries.cacheDir(env), deadline));
    }

    private static String glooPrefix(final RankIdentity id) {
        return GLOO + "/w" + id.worldSize() + "/";
    }

    /** The nccl communicator's configuration: the spec's part, and the environment's all-to-all choice. */
    NcclConfig ncclConfig(final String library, final List<Integer> devices, final NcclConfig.Timing timing) {
        return new NcclConfig(library, devices, timing, "grouped".equals(env.optional(EnvVar.CCTK_NCCL_ALLTOALL)));
    }
}
