package cctk.spec;

import cctk.results.Reference;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One run, fully resolved: what {@link SpecParser} makes of a configs/*.yaml file after
 * {@code extends:} and defaults. Immutable; knows nothing of rendering or Slurm.
 *
 * @param source    the file it was read from
 * @param job       name, output directory, time limit
 * @param cluster   where it runs (from the cluster profile, overridable)
 * @param resources nodes, tasks, GPUs, NICs
 * @param ncclEnv   validated NCCL_* variables, in spec order
 * @param env       other exported variables (FI_*, GLOO_*, cctk's own), in spec order
 * @param benchmark what to measure
 * @param references expected bus bandwidths that {@code cctk report} and a run judge (empty when none)
 * @param nccl      how the nccl backend runs ({@link NcclOptions#DEFAULT} without an {@code nccl:} section)
 * @param diagnose  the {@code diagnose:} section, or null: with it the job diagnoses the cluster instead of running
 *                  the benchmark sweep
 * @param tcp       which transports the CPU backend {@code tcp} uses ({@link TcpSettings#DEFAULT} without a
 *                  {@code tcp:} section)
 */
public record JobSpec(Path source, Job job, Cluster cluster, Resources resources,
                      Map<String, String> ncclEnv, Map<String, String> env, Benchmark benchmark,
                      List<Reference> references, NcclOptions nccl, Diagnose diagnose, TcpSettings tcp) {

    /** A spec with the default tcp section. */
    public JobSpec(final Path source, final Job job, final Cluster cluster, final Resources resources,
                   final Map<String, String> ncclEnv, final Map<String, String> env, final Benchmark benchmark,
                   final List<Reference> references, final NcclOptions nccl, final Diagnose diagnose) {
        this(source, job, cluster, resources, ncclEnv, env, benchmark, references, nccl, diagnose,
                TcpSettings.DEFAULT);
    }

    /** A spec without a {@code diagnose:} section. */
    public JobSpec(final Path source, final Job job, final Cluster cluster, final Resources resources,
                   final Map<String, String> ncclEnv, final Map<String, String> env, final Benchmark benchmark,
                   final List<Reference> references, final NcclOptions nccl) {
        this(source, job, cluster, resources, ncclEnv, env, benchmark, references, nccl, null, TcpSettings.DEFAULT);
    }

    /** A spec with the default nccl section. */
    public JobSpec(final Path source, final Job job, final Cluster cluster, final Resources resources,
                   final Map<String, String> ncclEnv, final Map<String, String> env, final Benchmark benchmark,
                   final List<Reference> references) {
        this(source, job, cluster, resources, ncclEnv, env, benchmark, references, NcclOptions.DEFAULT, null,
                TcpSettings.DEFAULT);
    }

    /** This spec with {@code d} as its {@code diagnose:} section (null: none). */
    public JobSpec withDiagnose(final Diagnose d) {
        return new JobSpec(source, job, cluster, resources, ncclEnv, env, benchmark, references, nccl, d, tcp);
    }
}
