package cctk.rank;

import static cctk.EnvVar.CCTK_LAUNCH_ID;
import static cctk.EnvVar.GROUP_RANK;
import static cctk.EnvVar.LOCAL_RANK;
import static cctk.EnvVar.MASTER_ADDR;
import static cctk.EnvVar.MASTER_PORT;
import static cctk.EnvVar.OMPI_COMM_WORLD_LOCAL_RANK;
import static cctk.EnvVar.OMPI_COMM_WORLD_NODE_RANK;
import static cctk.EnvVar.OMPI_COMM_WORLD_RANK;
import static cctk.EnvVar.OMPI_COMM_WORLD_SIZE;
import static cctk.EnvVar.RANK;
import static cctk.EnvVar.SLURM_JOB_ID;
import static cctk.EnvVar.SLURM_JOB_NODELIST;
import static cctk.EnvVar.SLURM_LOCALID;
import static cctk.EnvVar.SLURM_NODEID;
import static cctk.EnvVar.SLURM_NTASKS;
import static cctk.EnvVar.SLURM_PROCID;
import static cctk.EnvVar.SLURM_STEP_ID;
import static cctk.EnvVar.SLURM_STEP_NODELIST;
import static cctk.EnvVar.SLURM_STEP_NUM_TASKS;
import static cctk.EnvVar.TORCHELASTIC_RUN_ID;
import static cctk.EnvVar.WORLD_SIZE;

import cctk.CctkException;
import cctk.EnvVar;
import cctk.Environment;
import java.util.List;
import java.util.Locale;

/**
 * Who this process is in the job: from Slurm's task variables, else torchrun's, else Open MPI's (cctk's local
 * launcher uses torchrun's and marks itself). Node list and node index are what the launcher knows: under
 * torchrun and Open MPI only the rendezvous host is listed.
 *
 * @param rank           rank in the world (the step under Slurm), 0..worldSize-1
 * @param worldSize      ranks in the world
 * @param localRank      rank on this node (GPU index)
 * @param nodeIndex      index of this node in {@code nodes}
 * @param nodes          the step's hosts, expanded, in Slurm's order
 * @param jobId          Slurm job id, torchrun run id, or the launcher's run id
 * @param stepId         Slurm step id; 0 elsewhere
 * @param rendezvousHost where rank 0 serves the store: MASTER_ADDR, else the first node
 * @param rendezvousPort MASTER_PORT, else derived from job and step id
 * @param source         which launcher's variables were read
 */
public record RankIdentity(int rank, int worldSize, int localRank, int nodeIndex, List<String> nodes, String jobId,
                           int stepId, String rendezvousHost, int rendezvousPort, Source source) {

    /** Which launcher's variables the identity came from. */
    public enum Source {
        SLURM, TORCHRUN, OMPI, LAUNCHER;

        /** Lower-case name, as printed. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public RankIdentity {
        nodes = List.copyOf(nodes);
        if (rank >= worldSize) {
            throw CctkException.environment("rank " + rank + " is not below the world size " + worldSize
                    + " (from " + source.label() + " variables).");
        }
    }

    /** The identity from {@code env}; throws CctkException(ENVIRONMENT) naming a missing or garbled variable. */
    public static RankIdentity fromEnvironment(final Environment env) {
        if (env.optional(CCTK_LAUNCH_ID) != null) {
            return torchStyle(env, Source.LAUNCHER, env.optional(CCTK_LAUNCH_ID));
        }
        if (env.optional(SLURM_PROCID) != null) {
            return slurm(env);
        }
        if (env.optional(RANK) != null) {
            final String run = env.optional(TORCHELASTIC_RUN_ID);
            return torchStyle(env, Source.TORCHRUN, run == null ? "local" : run);
        }
        if (env.optional(OMPI_COMM_WORLD_RANK) != null) {
            return openMpi(env);
        }
        throw CctkException.environment("cctk rank found none of " + SLURM_PROCID + ", " + RANK + " or "
                + OMPI_COMM_WORLD_RANK + " in its environment, so it cannot tell which rank it is. Start it with srun,"
                + " torchrun, mpirun, or use 'cctk run' to start the ranks on this machine.");
    }

    /** A port in [20000, 32768) from job and step id, so jobs sharing a node and steps of one job differ. */
    public static int derivedPort(final long jobId, final int stepId) {
        final int steps = RankConfiguration.DERIVED_PORT_STEPS;
        final long slot = jobId * steps + stepId % steps;
        return RankConfiguration.DERIVED_PORT_BASE + Math.floorMod(slot, RankConfiguration.DERIVED_PORT_SPAN);
    }

    /** One line for logs: "rank 1/4 local 1 node 0 (nid001) job 123.0 rendezvous nid001:20123 via slurm". */
    public String describe() {
        final String node = nodeIndex < nodes.size() ? " (" + nodes.get(nodeIndex) + ")" : "";
        return "rank " + rank + "/" + worldSize + " local " + localRank + " node " + nodeIndex + node + " job "
                + jobId + "." + stepId + " rendezvous " + rendezvousHost + ":" + rendezvousPort + " via "
                + source.label();
    }

    private static RankIdentity slurm(final Environment env) {
        final String style = "Slurm";
        final int rank = RankConfiguration.nonNegative(env, SLURM_PROCID, style);
        final EnvVar tasksVar = env.optional(SLURM_STEP_NUM_TASKS) != null
                ? SLURM_STEP_NUM_TASKS : SLURM_NTASKS;
        final int world = RankConfiguration.nonNegative(env, tasksVar, style);
        final int local = RankConfiguration.nonNegative(env, SLURM_LOCALID, style);
        final int node = RankConfiguration.nonNegative(env, SLURM_NODEID, style);
        final EnvVar listVar = env.optional(SLURM_STEP_NODELIST) != null
                ? SLURM_STEP_NODELIST : SLURM_JOB_NODELIST;
        final String expr = RankConfiguration.required(env, listVar, style);
        final List<String> nodes;
        try {
            nodes = Hostlist.expand(expr);
        } catch (final CctkException e) {
            throw CctkException.environment(listVar + " is not a hostlist: " + e.getMessage());
        }
        if (node >= nodes.size()) {
            throw CctkException.environment(SLURM_NODEID + "=" + node + " but " + listVar + "='" + expr
                    + "' lists " + nodes.size() + " node(s).");
        }
        final String job = RankConfiguration.required(env, SLURM_JOB_ID, style);
        final long jobNumber = number(job, SLURM_JOB_ID);
        final int step = env.optional(SLURM_STEP_ID) == null
                ? 0 : RankConfiguration.nonNegative(env, SLURM_STEP_ID, style);
        return new RankIdentity(rank, world, local, node, nodes, job, step, host(env, nodes.get(0)),
                port(env, derivedPort(jobNumber, step)), Source.SLURM);
    }

    private static RankIdentity torchStyle(final Environment env, final Source source, final String job) {
        final String style = source == Source.LAUNCHER ? "cctk launcher" : "torchrun";
        final int rank = RankConfiguration.nonNegative(env, RANK, style);
        final int world = RankConfiguration.nonNegative(env, WORLD_SIZE, style);
        final int local = env.optional(LOCAL_RANK) == null
                ? rank : RankConfiguration.nonNegative(env, LOCAL_RANK, style);
        final int node = env.optional(GROUP_RANK) == null
                ? 0 : RankConfiguration.nonNegative(env, GROUP_RANK, style);
        final String host = RankConfiguration.required(env, MASTER_ADDR, style);
        return new RankIdentity(rank, world, local, node, List.of(host), job, 0, host,
                port(env, RankConfiguration.MASTER_PORT_DEFAULT), source);
    }

    private static RankIdentity openMpi(final Environment env) {
        final String style = "Open MPI";
        final int rank = RankConfiguration.nonNegative(env, OMPI_COMM_WORLD_RANK, style);
        final int world = RankConfiguration.nonNegative(env, OMPI_COMM_WORLD_SIZE, style);
        final int local = env.optional(OMPI_COMM_WORLD_LOCAL_RANK) == null
                ? rank : RankConfiguration.nonNegative(env, OMPI_COMM_WORLD_LOCAL_RANK, style);
        final int node = env.optional(OMPI_COMM_WORLD_NODE_RANK) == null
                ? 0 : RankConfiguration.nonNegative(env, OMPI_COMM_WORLD_NODE_RANK, style);
        // Open MPI names no rendezvous host: the user exports MASTER_ADDR (mpirun -x MASTER_ADDR)
        final String host = RankConfiguration.required(env, MASTER_ADDR, style + " (set by you: mpirun -x)");
        return new RankIdentity(rank, world, local, node, List.of(host), "mpirun", 0, host,
                port(env, RankConfiguration.MASTER_PORT_DEFAULT), Source.OMPI);
    }

    private static String host(final Environment env, final String firstNode) {
        final String addr = env.optional(MASTER_ADDR);
        return addr == null ? firstNode : addr;
    }

    private static int port(final Environment env, final int fallback) {
        return env.optional(MASTER_PORT) == null
                ? fallback : RankConfiguration.port(env, MASTER_PORT);
    }

    private static long number(final String value, final EnvVar name) {
        try {
            return Long.parseLong(value);
        } catch (final NumberFormatException e) {
            throw CctkException.environment(name + "='" + value + "' is not a job id (a number).");
        }
    }
}
