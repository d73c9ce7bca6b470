package cctk.rank;

import cctk.ExitCode;
import cctk.bench.Harness;
import cctk.bench.RunContext;
import cctk.comm.Store;
import cctk.comm.nccl.NcclCommunicator;
import cctk.comm.nccl.NcclSetup;
import cctk.spec.JobSpec;
import java.time.Duration;
import java.util.Map;

/**
 * The nccl case of {@link RankMain.BackendRun}: opens the rank's NCCL communicator (loading CUDA and NCCL only
 * now, so other backends and commands never touch native code), adds the GPU and transport to the rank's header
 * line and runs the harness on it.
 */
public final class NcclBackendRun implements RankMain.BackendRun {

    private final Map<String, String> env;

    public NcclBackendRun(final Map<String, String> env) {
        this.env = env;
    }

    @Override
    public ExitCode run(final String backend, final RankIdentity id, final Store store, final JobSpec spec,
                        final RunContext context) {
        final NcclSetup.Request request = new NcclSetup.Request(id.rank(), id.worldSize(), id.localRank(), store,
                "nccl/" + backend + "/w" + id.worldSize() + "/", backend, spec.nccl(),
                Duration.ofSeconds(spec.benchmark().timeoutSeconds()), env);
        try (NcclCommunicator comm = NcclSetup.open(request)) {
            final String line = context.rankLine() + " " + NcclSetup.describe(comm, env, Rendezvous.localHostName());
            final RunContext mine = new RunContext(context.version(), context.specFile(), context.jobId(), line,
                    context.outputDir(), context.environment());
            return new Harness(comm, store, spec, mine).run();
        }
    }
}
