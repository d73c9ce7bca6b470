package cctk.render;

import cctk.CctkException;
import cctk.spec.Cluster;
import cctk.spec.JobEnvironment;
import cctk.spec.JobSpec;
import cctk.spec.NcclOptions;
import cctk.spec.RankJvm;
import cctk.spec.Resources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code srun} step per world size of {@code benchmark.tasks}. Options are explicit because an outer
 * environment (SLURM_* input variables) can change a nested srun, and Slurm 22.05/23.02 srun does not inherit
 * {@code --cpus-per-task} from sbatch. GPU steps keep every GPU of a node visible ({@code --gpu-bind=none} by
 * default) so NCCL can use NVLink; ranks pick their device from SLURM_LOCALID. Block distribution puts rank 0 on
 * the first node. Every rank's JVM starts with {@link RankJvm}'s options: memory from the plan, class-data sharing
 * with the archive beside the jar.
 */
final class SrunSteps {

    private static final String DEFAULT_GPU_BIND = "none";
    private static final String DEFAULT_DISTRIBUTION = "block";

    private SrunSteps() {
    }

    /** The placement of one world size: the fewest nodes it fits on, tasks spread evenly over them. */
    record Placement(int worldSize, int nodes, int tasksPerNode) {

        static Placement of(final int worldSize, final Resources r) {
            if (worldSize < 1 || worldSize > r.totalTasks()) {
                throw CctkException.usage("'benchmark.tasks' holds " + worldSize + ", but the allocation has "
                        + r.totalTasks() + " tasks (" + r.nodes() + " nodes x " + r.tasksPerNode()
                        + "); every world size must be between 1 and " + r.totalTasks() + ".");
            }
            final int nodes = ceilDiv(worldSize, r.tasksPerNode());
            return new Placement(worldSize, nodes, ceilDiv(worldSize, nodes));
        }

        private static int ceilDiv(final int a, final int b) {
            return (a + b - 1) / b;
        }
    }

    static ShellText of(final JobSpec spec, final Path specPath) {
        final Resources r = spec.resources();
        final Cluster c = spec.cluster();
        // a diagnosis is one step of every task: it forms its per-node and per-pair groups inside it
        final List<Integer> worldSizes = spec.diagnose() != null ? List.of(r.totalTasks())
                : spec.benchmark() == null ? List.of() : SbatchRenderer.orEmpty(spec.benchmark().taskCounts());
        if (worldSizes.isEmpty()) {
            throw CctkException.usage("'benchmark.tasks' is empty; list at least one world size, e.g. ["
                    + r.totalTasks() + "].");
        }
        final String jar = require(c.jar(), "cluster.jar");
        final StringBuilder jvm = new StringBuilder();
        for (final String option : RankJvm.options(spec, Path.of(jar))) {
            jvm.append(' ').append(ShellQuote.quote("cluster.jar", option).text());
        }
        final String rank = ShellQuote.quote("cluster.java", orDefault(c.java(), "java")).text() + jvm
                + " \\\n        -jar " + ShellQuote.quote("cluster.jar", jar).text()
                + " rank --spec " + ShellQuote.quote("job directory", specPath.toString()).text();
        final List<ShellText> steps = new ArrayList<>();
        for (final int w : worldSizes) {
            steps.add(step(Placement.of(w, r), r, extra(c), profiler(spec, w) + rank));
        }
        return ShellText.join("\n", steps);
    }

    /** cluster.srun_extra, each option one quoted word, with a leading space; empty when there are none. */
    private static String extra(final Cluster c) {
        final StringBuilder sb = new StringBuilder();
        for (final String option : SbatchRenderer.orEmpty(c.srunExtra())) {
            if (!option.startsWith("-")) {
                throw CctkException.usage("'cluster.srun_extra' holds '" + option + "'; each entry must be one whole"
                        + " srun option such as --network=disable_rdzv_get.");
            }
            sb.append(' ').append(ShellQuote.quote("cluster.srun_extra", option).text());
        }
        return sb.toString();
    }

    private static ShellText step(final Placement p, final Resources r, final String extra, final String rank) {
        final String label = "W=" + p.worldSize() + " nodes=" + p.nodes() + " tasks-per-node=" + p.tasksPerNode();
        final StringBuilder sb = new StringBuilder()
                .append("cctk_step ").append(ShellQuote.quoteWord(label)).append(" \\\n")
                .append("    srun --nodes=").append(p.nodes()).append(" --ntasks=").append(p.worldSize())
                .append(" --ntasks-per-node=").append(p.tasksPerNode())
                .append(" --cpus-per-task=").append(r.cpusPerTask()).append(' ')
                .append(ShellQuote.quote("resources.distribution",
                        "--distribution=" + orDefault(r.distribution(), DEFAULT_DISTRIBUTION)).text())
                .append(" --kill-on-bad-exit=1").append(extra);
        if (r.gpusPerNode() > 0) {
            sb.append(" \\\n        --gpus-per-node=").append(r.gpusPerNode()).append(' ')
                    .append(ShellQuote.quote("resources.gpu_bind",
                            "--gpu-bind=" + orDefault(r.gpuBind(), DEFAULT_GPU_BIND)).text());
        }
        sb.append(" \\\n        ").append(rank);
        return ShellQuote.passThrough(sb.toString());
    }

    /** Whether the spec runs a backend that the nccl section describes. */
    static boolean runsNccl(final JobSpec spec) {
        return JobEnvironment.runsNccl(spec);
    }

    /**
     * nccl.profiler's wrapper in front of the rank command: one report per rank, named after the job, world size
     * and rank (the profiler expands %q{SLURM_PROCID} in each task), under the output directory's profiles/.
     */
    static String profiler(final JobSpec spec, final int worldSize) {
        if (!runsNccl(spec) || spec.nccl().profiler() == NcclOptions.Profiler.NONE) {
            return "";
        }
        final String report = spec.job().outputDir() + "/profiles/" + spec.job().name() + ".w" + worldSize
                + ".rank%q{SLURM_PROCID}";
        final String out = ShellQuote.quote("job.output_dir", report).text();
        return switch (spec.nccl().profiler()) {
            case NSYS -> "nsys profile --trace=cuda,nvtx,osrt --force-overwrite=true --output=" + out + " ";
            case NCU -> "ncu --target-processes all --force-overwrite --export " + out + " ";
            case NONE -> "";
        };
    }

    /**
     * The nccl section's lines before the steps: the profiles/ directory for nccl.profiler's reports, and for
     * nccl.debug NCCL's INFO log, one file per rank (NCCL fills %h and %p), which each rank reads back. Null if none.
     */
    static ShellText ncclSetup(final JobSpec spec) {
        if (!runsNccl(spec)) {
            return null;
        }
        final String out = spec.job().outputDir();
        final StringBuilder sb = new StringBuilder();
        if (spec.nccl().profiler() != NcclOptions.Profiler.NONE) {
            sb.append("# nccl.profiler: one ").append(spec.nccl().profiler().specName()).append(" report per rank\n")
                    .append("mkdir -p -- ").append(ShellQuote.quote("job.output_dir", out + "/profiles").text());
        }
        if (spec.nccl().debug()) {
            sb.append(sb.length() == 0 ? "" : "\n")
                    .append("# nccl.debug: NCCL's INFO log per rank, summarised in each rank's header line\n")
                    .append("mkdir -p -- ")
                    .append(ShellQuote.quote("job.output_dir", JobEnvironment.ncclDebugDir(spec)).text());
            for (final JobEnvironment.Variable v : JobEnvironment.ncclDebug(spec)) {
                sb.append("\nexport ").append(v.name()).append('=').append(ShellQuote.quote(v.key(), v.value()).text());
            }
        }
        return sb.length() == 0 ? null : ShellQuote.passThrough(sb.toString());
    }

    private static String orDefault(final String value, final String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }

    private static String require(final String value, final String key) {
        if (value == null || value.isBlank()) {
            throw CctkException.usage("'" + key + "' is not set; the job script needs it to start the ranks.");
        }
        return value;
    }
}
