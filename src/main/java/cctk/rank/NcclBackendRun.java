package cctk.rank;

import cctk.Environment;
import cctk.bench.Harness;
import cctk.bench.RunContext;
import cctk.bench.SweepResult;
import cctk.comm.Store;
import cctk.comm.nccl.NcclCommunicator;
import cctk.comm.nccl.NcclSetup;
import cctk.spec.JobSpec;
import cctk.spec.NcclOptions;
import java.time.Duration;

/**
 * The nccl case of {@link RankMain.BackendRun}: opens the rank's NCCL communicator (loading CUDA and NCCL only
 * now, so other backends and commands never touch native code), puts the GPU and transport in the rank's header
 * line and runs the harness on it.
 * <b>Note:</b> threadsafe (immutable).
 */
final class NcclBackendRun implements RankMain.BackendRun {

    private final Environment env;

    NcclBackendRun(final Environment env) {
        this.env = env;
    }

    @Override
    public SweepResult run(final String backend, final RankIdentity id, final Store store, final JobSpec spec,
                           final RunContext context) {
        final NcclOptions n = spec.nccl();
        final NcclSetup.Request request = new NcclSetup.Request(id.rank(), id.worldSize(), id.localRank(), store,
                "nccl/" + backend + "/w" + id.worldSize() + "/", backend,
                new Backends(env).ncclConfig(n.library(), n.devices(), n.timing()),
                Duration.ofSeconds(spec.benchmark().timeoutSeconds()), env);
        try (NcclCommunicator comm = NcclSetup.open(request)) {
            final String gpu = NcclSetup.describe(comm, env);
            return new Harness(comm, store, spec, context.withRank(context.rank().withDevice(gpu))).sweep();
        }
    }
}
