package cctk.rank;

import cctk.CctkException;
import cctk.EnvVar;
import cctk.Environment;

/**
 * How a rank reads its identity variables ({@link EnvVar}), and the rendezvous defaults behind them.
 * <b>Note:</b> threadsafe (no state).
 */
public final class RankConfiguration {

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
    public static boolean startedAsRank(final Environment env) {
        return env.optional(EnvVar.CCTK_LAUNCH_ID) != null || env.optional(EnvVar.SLURM_PROCID) != null
                || env.optional(EnvVar.RANK) != null || env.optional(EnvVar.OMPI_COMM_WORLD_RANK) != null;
    }

    /** The value of {@code name}; throws CctkException(ENVIRONMENT) naming it when unset. */
    static String required(final Environment env, final EnvVar name, final String style) {
        final String v = env.optional(name);
        if (v == null) {
            throw CctkException.environment(style + " variable " + name + " is not set; cctk rank needs it to"
                    + " know which rank it is. Run it under srun, torchrun, mpirun or 'cctk run'.");
        }
        return v;
    }

    /** A non-negative integer from {@code name}; throws CctkException(ENVIRONMENT) naming it when garbled. */
    static int nonNegative(final Environment env, final EnvVar name, final String style) {
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
    static int port(final Environment env, final EnvVar name) {
        final String v = env.optional(name);
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
