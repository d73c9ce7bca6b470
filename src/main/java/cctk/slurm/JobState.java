package cctk.slurm;

import java.util.Locale;

/**
 * The states Slurm reports for a job (squeue %T, scontrol JobState=, sacct State), with whether
 * the job is over and whether it went well. Flags such as REQUEUED count as still going.
 */
public enum JobState {
    PENDING("PD", false, false),
    CONFIGURING("CF", false, false),
    RUNNING("R", false, false),
    COMPLETING("CG", false, false),
    SUSPENDED("S", false, false),
    COMPLETED("CD", true, true),
    FAILED("F", true, false),
    TIMEOUT("TO", true, false),
    OUT_OF_MEMORY("OOM", true, false),
    NODE_FAIL("NF", true, false),
    CANCELLED("CA", true, false),
    BOOT_FAIL("BF", true, false),
    DEADLINE("DL", true, false),
    PREEMPTED("PR", true, false),
    REVOKED("RV", true, false),
    REQUEUED("RQ", false, false),
    REQUEUE_HOLD("RH", false, false),
    REQUEUE_FED("RF", false, false),
    SPECIAL_EXIT("SE", false, false),
    RESV_DEL_HOLD("RD", false, false),
    RESIZING("RS", false, false),
    SIGNALING("SI", false, false),
    STAGE_OUT("SO", false, false),
    STOPPED("ST", false, false),
    /** A state this cctk does not know yet; treated as still going so that a deadline ends the wait. */
    UNKNOWN("?", false, false);

    private final String code;
    private final boolean terminal;
    private final boolean success;

    JobState(final String code, final boolean terminal, final boolean success) {
        this.code = code;
        this.terminal = terminal;
        this.success = success;
    }

    /** squeue's short code, e.g. {@code PD}. */
    public String code() {
        return code;
    }

    /** The job is over and will not change state again. */
    public boolean terminal() {
        return terminal;
    }

    /** The job ended with exit code zero on every node. */
    public boolean success() {
        return success;
    }

    /**
     * Reads a state as any Slurm tool prints it: long or short name, any case, with sacct's
     * "CANCELLED by 0" and truncation '+' removed. Anything else is {@link #UNKNOWN}.
     */
    public static JobState parse(final String text) {
        String s = text == null ? "" : text.trim();
        final int space = s.indexOf(' ');
        if (space > 0) {
            s = s.substring(0, space);
        }
        while (s.endsWith("+")) {
            s = s.substring(0, s.length() - 1);
        }
        s = s.toUpperCase(Locale.ROOT);
        for (final JobState st : values()) {
            if (st != UNKNOWN && (st.name().equals(s) || st.code.equals(s))) {
                return st;
            }
        }
        return UNKNOWN;
    }
}
