package cctk.rank;

import cctk.EnvVar;
import cctk.Environment;
import cctk.bench.PointHook;
import java.time.Instant;

/**
 * TEST-ONLY fault switch, so that tests on a real cluster can watch the other ranks and Slurm deal with a rank
 * dying mid-sweep: {@code CCTK_FAULT_KILL=R:N} makes rank R halt (exit code 137, no clean-up, like a SIGKILL) once it
 * has measured N sizes. Never set it for a real measurement; without it the sweep's hook is
 * {@link PointHook#NONE}.
 * <b>Note:</b> threadsafe (immutable).
 */
public final class TestFaults implements PointHook {

    /** The exit status of a halted rank, as a SIGKILL-ed process shows it. */
    static final int HALT_STATUS = 137;

    private final int rank;
    private final int sizes;
    private final String setting;

    private TestFaults(final int rank, final int sizes, final String setting) {
        this.rank = rank;
        this.sizes = sizes;
        this.setting = setting;
    }

    /** The hook {@code env} asks for: {@link PointHook#NONE} unless {@code CCTK_FAULT_KILL} is {@code R:N}. */
    public static PointHook from(final Environment env) {
        final String v = env.optional(EnvVar.CCTK_FAULT_KILL);
        if (v == null || !v.matches("[0-9]{1,9}:[0-9]{1,9}")) {
            return PointHook.NONE;
        }
        final String[] rankAndSizes = v.split(":");
        return new TestFaults(Integer.parseInt(rankAndSizes[0]), Integer.parseInt(rankAndSizes[1]), v);
    }

    @Override
    public void beforePoint(final int me, final int sizesDone) {
        if (me == rank && sizesDone >= sizes) {
            System.err.println("cctk: rank " + me + " halts at " + Instant.now() + " after measuring "
                + sizesDone + " size(s): " + EnvVar.CCTK_FAULT_KILL + "=" + setting + " (test-only fault)");
            System.err.flush();
            Runtime.getRuntime().halt(HALT_STATUS);
        }
    }
}
