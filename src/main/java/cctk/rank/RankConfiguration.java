package cctk.rank;

import cctk.CctkException;
import java.util.Map;

/**
 * Every environment variable the rank process reads, and the defaults behind them. One place, so that the
 * renderer, the launcher and the docs can name the same variables. <b>Note:</b> constants only.
 */
public final class RankConfiguration {

    /** Slurm: rank within the step. */
    public static final String SLURM_PROCID_PROP = "SLURM_PROCID";
    /** Slurm: tasks of the step (preferred over {@link #SLURM_NTASKS_PROP}). */
    public static final String SLURM_STEP_NUM_TASKS_PROP = "SLURM_STEP_NUM_TASKS";
    /** Slurm: tasks of the step inside a step, of the job outside one. */
    public static final String SLURM_NTASKS_PROP = "SLURM_NTASKS";
    /** Slurm: task index on this node. */
    public static final String SLURM_LOCALID_PROP = "SLURM_LOCALID";
    /** Slurm: index of this node in the step's node list. */
    public static final String SLURM_NODEID_PROP = "SLURM_NODEID";
    /** Slurm: the step's nodes (preferred over {@link #SLURM_JOB_NODELIST_PROP}). */
    public static final String SLURM_STEP_NODELIST_PROP = "SLURM_STEP_NODELIST";
    /** Slurm: the job's nodes. */
    public static final String SLURM_JOB_NODELIST_PROP = "SLURM_JOB_NODELIST";
    /** Slurm: job id. */
    public static final String SLURM_JOB_ID_PROP = "SLURM_JOB_ID";
    /** Slurm: step id; absent outside a step, then 0. */
    public static final String SLURM_STEP_ID_PROP = "SLURM_STEP_ID";

    /** torchrun / env:// style: global rank. */
    public static final String RANK_PROP = "RANK";
    /** torchrun style: world size. */
    public static final String WORLD_SIZE_PROP = "WORLD_SIZE";
    /** torchrun style: rank on this node. */
    public static final String LOCAL_RANK_PROP = "LOCAL_RANK";
    /** torchrun: node index. */
    public static final String GROUP_RANK_PROP = "GROUP_RANK";
    /** torchrun: run id, our job id in that style. */
    public static final String TORCHELASTIC_RUN_ID_PROP = "TORCHELASTIC_RUN_ID";
    /** Rendezvous host; overrides the first host of the node list in every style. */
    public static final String MASTER_ADDR_PROP = "MASTER_ADDR";
    /** Rendezvous port; overrides the port derived from the job id in every style. */
    public static final String MASTER_PORT_PROP = "MASTER_PORT";

    /** Open MPI: global rank. */
    public static final String OMPI_RANK_PROP = "OMPI_COMM_WORLD_RANK";
    /** Open MPI: world size. */
    public static final String OMPI_SIZE_PROP = "OMPI_COMM_WORLD_SIZE";
    /** Open MPI: rank on this node. */
    public static final String OMPI_LOCAL_RANK_PROP = "OMPI_COMM_WORLD_LOCAL_RANK";
    /** Open MPI: node index (Open MPI 5 / PRRTE). */
    public static final String OMPI_NODE_RANK_PROP = "OMPI_COMM_WORLD_NODE_RANK";

    /** cctk's local launcher marks its ranks with its run id; then the torchrun-style variables are read. */
    public static final String CCTK_LAUNCH_ID_PROP = "CCTK_LAUNCH_ID";
    /** cctk's local launcher names its own pid: its ranks stop when it is gone (cctk.launch.LauncherWatch). */
    public static final String CCTK_LAUNCHER_PID_PROP = "CCTK_LAUNCHER_PID";
    /** The per-job secret ranks prove they know when joining the store. Never printed. */
    public static final String CCTK_SECRET_PROP = "CCTK_SECRET";

    /**
     * TEST-ONLY: {@code R:N} makes rank R halt after measuring N sizes (read by {@link cctk.bench.Harness}).
     */
    public static final String CCTK_FAULT_KILL_PROP = cctk.bench.Harness.FAULT_KILL;

    /** Port when torchrun or Open MPI style gives none (torchrun's own default). */
    public static final int MASTER_PORT_DEFAULT = 29500;
    /**
     * Derived ports lie in [20000, 32768): unprivileged, and below Linux's default ephemeral range
     * (32768-60999), so outgoing connections of other programs never hold them.
     */
    public static final int DERIVED_PORT_BASE = 20_000;
    /** Size of the derived port range. */
    public static final int DERIVED_PORT_SPAN = 12_768;
    /** Steps per job that get distinct ports before the ports of the next job id are reached. */
    public static final int DERIVED_PORT_STEPS = 64;

    private RankConfiguration() {
    }

    /** Whether {@code env} says this process is one rank of a job (cctk run, srun, torchrun or mpirun). */
    public static boolean startedAsRank(final Map<String, String> env) {
        return optional(env, CCTK_LAUNCH_ID_PROP) != null || optional(env, SLURM_PROCID_PROP) != null
                || optional(env, RANK_PROP) != null || optional(env, OMPI_RANK_PROP) != null;
    }

    /** The value of {@code name}, or null when unset or blank. */
    public static String optional(final Map<String, String> env, final String name) {
        final String v = env.get(name);
        return v == null || v.isBlank() ? null : v.trim();
    }

    /** The value of {@code name}; throws CctkException(ENVIRONMENT) naming it when unset. */
    static String required(final Map<String, String> env, final String name, final String style) {
        final String v = optional(env, name);
        if (v == null) {
            throw CctkException.environment(style + " variable " + name + " is not set; cctk rank needs it to"
                    + " know which rank it is. Run it under srun, torchrun, mpirun or 'cctk run'.");
        }
        return v;
    }

    /** A non-negative integer from {@code name}; throws CctkException(ENVIRONMENT) naming it when garbled. */
    static int nonNegative(final Map<String, String> env, final String name, final String style) {
        final String v = required(env, name, style);
        try {
            final int n = Integer.parseInt(v);
            if (n >= 0) {
                return n;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw CctkException.environment(name + "='" + v + "' is not a non-negative integer.");
    }

    /** The port in {@code name}, 1..65535. */
    static int port(final Map<String, String> env, final String name) {
        final String v = optional(env, name);
        try {
            final int p = Integer.parseInt(v);
            if (p > 0 && p < 65_536) {
                return p;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw CctkException.environment(name + "='" + v + "' is not a TCP port (1-65535).");
    }
}
