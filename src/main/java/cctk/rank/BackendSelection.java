package cctk.rank;

import cctk.ExitCode;
import cctk.bench.RunContext;
import cctk.comm.Store;
import cctk.spec.JobSpec;

/**
 * Picks the backend run by name: the spec's NCCL build ({@code nccl}, or its {@code nccl.backend_name}) goes to
 * {@link NcclBackendRun}; every other name to {@code others} (the tcp backend).
 */
public final class BackendSelection implements RankMain.BackendRun {

    private final RankMain.BackendRun nccl;
    private final RankMain.BackendRun others;

    public BackendSelection(final RankMain.BackendRun nccl, final RankMain.BackendRun others) {
        this.nccl = nccl;
        this.others = others;
    }

    @Override
    public ExitCode run(final String backend, final RankIdentity id, final Store store, final JobSpec spec,
                        final RunContext context) {
        return spec.nccl().serves(backend) ? nccl.run(backend, id, store, spec, context)
                : others.run(backend, id, store, spec, context);
    }
}
