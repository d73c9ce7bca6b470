package cctk;

/**
 * Every environment variable cctk reads, in one list: cctk reads a variable only through {@link Environment}, by one
 * of these names (and, for the result header and the script, every {@code NCCL_*} and {@code CCTK_*} variable by
 * prefix). The launchers set some of them for their ranks.
 */
public enum EnvVar {
    /** Slurm: rank within the step. */
    SLURM_PROCID,
    /** Slurm: tasks of the step (preferred over {@link #SLURM_NTASKS}). */
    SLURM_STEP_NUM_TASKS,
    /** Slurm: tasks of the step inside a step, of the job outside one. */
    SLURM_NTASKS,
    /** Slurm: task index on this node. */
    SLURM_LOCALID,
    /** Slurm: index of this node in the step's node list. */
    SLURM_NODEID,
    /** Slurm: the step's nodes (preferred over {@link #SLURM_JOB_NODELIST}). */
    SLURM_STEP_NODELIST,
    /** Slurm: the job's nodes. */
    SLURM_JOB_NODELIST,
    /** Slurm: job id. */
    SLURM_JOB_ID,
    /** Slurm: the job's projected end, in seconds since the epoch (how much of its time limit is left). */
    SLURM_JOB_END_TIME,
    /** Slurm: the job's start, in seconds since the epoch. */
    SLURM_JOB_START_TIME,
    /** Slurm: step id; absent outside a step, then 0. */
    SLURM_STEP_ID,
    /** Slurm: this node's name as Slurm knows it (the host name in rank lines and rendezvous). */
    SLURMD_NODENAME,
    /** Slurm: the job's private temporary directory, for JavaCPP's cache of native libraries. */
    SLURM_TMPDIR,

    /** torchrun / env:// style: global rank. */
    RANK,
    /** torchrun style: world size. */
    WORLD_SIZE,
    /** torchrun style: rank on this node. */
    LOCAL_RANK,
    /** torchrun: node index. */
    GROUP_RANK,
    /** torchrun: run id, our job id in that style. */
    TORCHELASTIC_RUN_ID,
    /** Rendezvous host; overrides the first host of the node list in every style. */
    MASTER_ADDR,
    /** Rendezvous port; overrides the port derived from the job id in every style. */
    MASTER_PORT,

    /** Open MPI: global rank. */
    OMPI_COMM_WORLD_RANK,
    /** Open MPI: world size. */
    OMPI_COMM_WORLD_SIZE,
    /** Open MPI: rank on this node. */
    OMPI_COMM_WORLD_LOCAL_RANK,
    /** Open MPI: node index (Open MPI 5 / PRRTE). */
    OMPI_COMM_WORLD_NODE_RANK,

    /** cctk's local launcher marks its ranks with its run id; then the torchrun-style variables are read. */
    CCTK_LAUNCH_ID,
    /** cctk's local launcher names its own pid: its ranks stop when it is gone. */
    CCTK_LAUNCHER_PID,
    /**
     * The SHA-256 of the spec the local launcher handed its ranks: a rank refuses a spec file with other bytes
     * ({@code cctk.spec.SpecDigest}).
     */
    CCTK_SPEC_SHA256,
    /** The per-job secret ranks prove they know when joining the store and the mesh. Never printed or sent. */
    CCTK_SECRET,
    /** TEST-ONLY: {@code R:N} makes rank R halt after measuring N sizes ({@code cctk.rank.TestFaults}). */
    CCTK_FAULT_KILL,
    /** {@code grouped}: the nccl backend's all-to-all as grouped send/recv even where ncclAlltoAll exists. */
    CCTK_NCCL_ALLTOALL,
    /** Where JavaCPP unpacks its native libraries, instead of a directory under the job's temporary directory. */
    CCTK_JAVACPP_CACHE,
    /** The gloo backend's module (cctk-gloo.jar and lib/), instead of gloo/ beside cctk.jar. */
    CCTK_GLOO_DIR,

    /** The temporary directory, for JavaCPP's cache when Slurm gives none. */
    TMPDIR,
    /** The user name, in the name of JavaCPP's cache directory. */
    USER,
    /** Where the dynamic loader looks for NCCL and CUDA, named in errors when they are missing. */
    LD_LIBRARY_PATH,
    /** Where Slurm's commands are looked up, and util-linux's taskset (cctk run's binding of ranks to CPUs). */
    PATH,
    /** The GPUs Slurm or the user made visible, named when none is. */
    CUDA_VISIBLE_DEVICES,
    /** NCCL's per-rank debug log, read for the transport it chose. */
    NCCL_DEBUG_FILE;

    /** Prefix of the NCCL variables shown in the result header. */
    public static final String NCCL_PREFIX = "NCCL_";
    /** Prefix of cctk's own variables shown in the result header (the secret never is). */
    public static final String CCTK_PREFIX = "CCTK_";
}
