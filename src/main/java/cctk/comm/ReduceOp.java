package cctk.comm;

import java.util.Locale;

/** Reduction operators, as NCCL names them. */
public enum ReduceOp {
    SUM, PROD, MIN, MAX, AVG;

    /** The name used in specs and result files, e.g. {@code sum}. */
    public String specName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The operator for a spec name (case-insensitive), or null when there is none. */
    public static ReduceOp bySpecName(final String name) {
        for (final ReduceOp op : values()) {
            if (op.specName().equalsIgnoreCase(name)) {
                return op;
            }
        }
        return null;
    }
}
