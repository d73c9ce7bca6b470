package cctk.rank;

import static cctk.rank.RankConfiguration.CCTK_LAUNCH_ID_PROP;
import static cctk.rank.RankConfiguration.GROUP_RANK_PROP;
import static cctk.rank.RankConfiguration.LOCAL_RANK_PROP;
import static cctk.rank.RankConfiguration.MASTER_ADDR_PROP;
import static cctk.rank.RankConfiguration.MASTER_PORT_PROP;
import static cctk.rank.RankConfiguration.OMPI_LOCAL_RANK_PROP;
import static cctk.rank.RankConfiguration.OMPI_NODE_RANK_PROP;
import static cctk.rank.RankConfiguration.OMPI_RANK_PROP;
import static cctk.rank.RankConfiguration.OMPI_SIZE_PROP;
import static cctk.rank.RankConfiguration.RANK_PROP;
import static cctk.rank.RankConfiguration.SLURM_JOB_ID_PROP;
import static cctk.rank.RankConfiguration.SLURM_JOB_NODELIST_PROP;
import static cctk.rank.RankConfiguration.SLURM_LOCALID_PROP;
import static cctk.rank.RankConfiguration.SLURM_NODEID_PROP;
import static cctk.rank.RankConfiguration.SLURM_NTASKS_PROP;
import static cctk.rank.RankConfiguration.SLURM_PROCID_PROP;
import static cctk.rank.RankConfiguration.SLURM_STEP_ID_PROP;
import static cctk.rank.RankConfiguration.SLURM_STEP_NODELIST_PROP;
import static cctk.rank.RankConfiguration.SLURM_STEP_NUM_TASKS_PROP;
import static cctk.rank.RankConfiguration.TORCHELASTIC_RUN_ID_PROP;
import static cctk.rank.RankConfiguration.WORLD_SIZE_PROP;

import cctk.CctkException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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

    /** The identity from the current process environment. */
    public static RankIdentity fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /** The identity from {@code env}; throws CctkException(ENVIRONMENT) naming a missing or garbled variable. */
    public static RankIdentity fromEnvironment(final Map<String, String> env) {
        if (RankConfiguration.optional(env, CCTK_LAUNCH_ID_PROP) != null) {
            return torchStyle(env, Source.LAUNCHER, RankConfiguration.optional(env, CCTK_LAUNCH_ID_PROP));
        }
        if (RankConfiguration.optional(env, SLURM_PROCID_PROP) != null) {
            return slurm(env);
        }
        if (RankConfiguration.optional(env, RANK_PROP) != null) {
            final String run = RankConfiguration.optional(env, TORCHELASTIC_RUN_ID_PROP);
            return torchStyle(env, Source.TORCHRUN, run == null ? "local" : run);
        }
        if (RankConfiguration.optional(env, OMPI_RANK_PROP) != null) {
            return openMpi(env);
        }
        throw CctkException.environment("cctk rank found none of " + SLURM_PROCID_PROP + ", " + RANK_PROP + " or "
                + OMPI_RANK_PROP + " in its environment, so it cannot tell which rank it is. Start it with srun,"
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

    private static RankIdentity slurm(final Map<String, String> env) {
        final String style = "Slurm";
        final int rank = RankConfiguration.nonNegative(env, SLURM_PROCID_PROP, style);
        final String tasksVar = RankConfiguration.optional(env, SLURM_STEP_NUM_TASKS_PROP) != null
                ? SLURM_STEP_NUM_TASKS_PROP : SLURM_NTASKS_PROP;
        final int world = RankConfiguration.nonNegative(env, tasksVar, style);
        final int local = RankConfiguration.nonNegative(env, SLURM_LOCALID_PROP, style);
        final int node = RankConfiguration.nonNegative(env, SLURM_NODEID_PROP, style);
        final String listVar = RankConfiguration.optional(env, SLURM_STEP_NODELIST_PROP) != null
                ? SLURM_STEP_NODELIST_PROP : SLURM_JOB_NODELIST_PROP;
        final String expr = RankConfiguration.required(env, listVar, style);
        final List<String> nodes;
        try {
            nodes = Hostlist.expand(expr);
        } catch (final CctkException e) {
            throw CctkException.environment(listVar + " is not a hostlist: " + e.getMessage());
        }
        if (node >= nodes.size()) {
            throw CctkException.environment(SLURM_NODEID_PROP + "=" + node + " but " + listVar + "='" + expr
                    + "' lists " + nodes.size() + " node(s).");
        }
        final String job = RankConfiguration.required(env, SLURM_JOB_ID_PROP, style);
        final long jobNumber = number(job, SLURM_JOB_ID_PROP);
        final int step = RankConfiguration.optional(env, SLURM_STEP_ID_PROP) == null
                ? 0 : RankConfiguration.nonNegative(env, SLURM_STEP_ID_PROP, style);
        return new RankIdentity(rank, world, local, node, nodes, job, step, host(env, nodes.get(0)),
                port(env, derivedPort(jobNumber, step)), Source.SLURM);
    }

    private static RankIdentity torchStyle(final Map<String, String> env, final Source source, final String job) {
        final String style = source == Source.LAUNCHER ? "cctk launcher" : "torchrun";
        final int rank = RankConfiguration.nonNegative(env, RANK_PROP, style);
        final int world = RankConfiguration.nonNegative(env, WORLD_SIZE_PROP, style);
        final int local = RankConfiguration.optional(env, LOCAL_RANK_PROP) == null
                ? rank : RankConfiguration.nonNegative(env, LOCAL_RANK_PROP, style);
        final int node = RankConfiguration.optional(env, GROUP_RANK_PROP) == null
                ? 0 : RankConfiguration.nonNegative(env, GROUP_RANK_PROP, style);
        final String host = RankConfiguration.required(env, MASTER_ADDR_PROP, style);
        return new RankIdentity(rank, world, local, node, List.of(host), job, 0, host,
                port(env, RankConfiguration.MASTER_PORT_DEFAULT), source);
    }

    private static RankIdentity openMpi(final Map<String, String> env) {
        final String style = "Open MPI";
        final int rank = RankConfiguration.nonNegative(env, OMPI_RANK_PROP, style);
        final int world = RankConfiguration.nonNegative(env, OMPI_SIZE_PROP, style);
        final int local = RankConfiguration.optional(env, OMPI_LOCAL_RANK_PROP) == null
                ? rank : RankConfiguration.nonNegative(env, OMPI_LOCAL_RANK_PROP, style);
        final int node = RankConfiguration.optional(env, OMPI_NODE_RANK_PROP) == null
                ? 0 : RankConfiguration.nonNegative(env, OMPI_NODE_RANK_PROP, style);
        // Open MPI names no rendezvous host: the user exports MASTER_ADDR (mpirun -x MASTER_ADDR)
        final String host = RankConfiguration.required(env, MASTER_ADDR_PROP, style + " (set by you: mpirun -x)");
        return new RankIdentity(rank, world, local, node, List.of(host), "mpirun", 0, host,
                port(env, RankConfiguration.MASTER_PORT_DEFAULT), Source.OMPI);
    }

    private static String host(final Map<String, String> env, final String firstNode) {
        final String addr = RankConfiguration.optional(env, MASTER_ADDR_PROP);
        return addr == null ? firstNode : addr;
    }

    private static int port(final Map<String, String> env, final int fallback) {
        return RankConfiguration.optional(env, MASTER_PORT_PROP) == null
                ? fallback : RankConfiguration.port(env, MASTER_PORT_PROP);
    }

    private static long number(final String value, final String name) {
        try {
            return Long.parseLong(value);
        } catch (final NumberFormatException e) {
            throw CctkException.environment(name + "='" + value + "' is not a job id (a number).");
        }
    }
}
