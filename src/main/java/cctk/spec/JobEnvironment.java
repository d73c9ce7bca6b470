package cctk.spec;

import cctk.CctkException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The environment a spec gives its ranks, in one place for every launcher: the sbatch script exports it (the
 * renderer quotes each value), {@code cctk run} puts it into each rank's process environment. In order: the spec's
 * {@code nccl_env}, its {@code env}, then {@code nccl.debug}'s {@code NCCL_DEBUG=INFO} and per-rank
 * {@code NCCL_DEBUG_FILE} when the spec runs NCCL; later entries win. A name that is not a variable name is refused
 * naming its key.
 * <b>Note:</b> threadsafe (no state).
 */
public final class JobEnvironment {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * One variable.
     *
     * @param name  the variable
     * @param value its value, as the rank sees it
     * @param key   the spec key it comes from, for messages ({@code nccl_env.NCCL_ALGO}, {@code nccl.debug})
     */
    public record Variable(String name, String value, String key) {
    }

    private JobEnvironment() {
    }

    /** The spec's {@code nccl_env} then {@code env}. */
    public static List<Variable> exported(final JobSpec spec) {
        final List<Variable> out = new ArrayList<>();
        add(out, "nccl_env", spec.ncclEnv());
        add(out, "env", spec.env());
        return out;
    }

    /** {@code nccl.debug}'s variables (NCCL's INFO log, one file per rank under the output directory), or none. */
    public static List<Variable> ncclDebug(final JobSpec spec) {
        if (!runsNccl(spec) || !spec.nccl().debug()) {
            return List.of();
        }
        return List.of(new Variable("NCCL_DEBUG", "INFO", "nccl.debug"),
            new Variable("NCCL_DEBUG_FILE", ncclDebugDir(spec) + "/%h.%p.log", "job.output_dir"));
    }

    /** Where {@code nccl.debug}'s log files go (the job creates it before its ranks start). */
    public static String ncclDebugDir(final JobSpec spec) {
        return spec.job().outputDir() + "/nccl-debug";
    }

    /** Everything a rank gets: {@link #exported} then {@link #ncclDebug}. */
    public static List<Variable> of(final JobSpec spec) {
        final List<Variable> out = new ArrayList<>(exported(spec));
        out.addAll(ncclDebug(spec));
        return out;
    }

    /** Whether the spec runs a backend that its nccl section describes. */
    public static boolean runsNccl(final JobSpec spec) {
        final NcclOptions n = spec.nccl();
        return n != null && spec.benchmark() != null && spec.benchmark().backends() != null
            && spec.benchmark().backends().stream().anyMatch(n::serves);
    }

    private static void add(final List<Variable> out, final String section, final Map<String, String> vars) {
        if (vars == null) {
            return;
        }
        for (final Map.Entry<String, String> e : vars.entrySet()) {
            final String key = section + "." + e.getKey();
            if (!NAME.matcher(e.getKey()).matches()) {
                throw CctkException.usage("'" + key + "' is not a valid environment variable name: use letters, "
                    + "digits and '_', not starting with a digit.");
            }
            out.add(new Variable(e.getKey(), e.getValue() == null ? "" : e.getValue(), key));
        }
    }
}
