package cctk.comm;

import java.util.Locale;

/** Element types a collective can carry, with the names specs and result files use. */
public enum DType {
    FLOAT32("float32", 4, true),
    FLOAT64("float64", 8, true),
    FLOAT16("float16", 2, true),
    BFLOAT16("bfloat16", 2, true),
    INT8("int8", 1, false),
    UINT8("uint8", 1, false),
    INT32("int32", 4, false),
    INT64("int64", 8, false);

    private final String specName;
    private final int bytes;
    private final boolean floating;

    DType(final String specName, final int bytes, final boolean floating) {
        this.specName = specName;
        this.bytes = bytes;
        this.floating = floating;
    }

    /** The name used in specs, CSV and file names, e.g. {@code float32}. */
    public String specName() {
        return specName;
    }

    /** Size of one element in bytes. */
    public int bytes() {
        return bytes;
    }

    public boolean floating() {
        return floating;
    }

    /** The type for a spec name (case-insensitive), or null when there is none. */
    public static DType bySpecName(final String name) {
        final String n = name.toLowerCase(Locale.ROOT);
        for (final DType t : values()) {
            if (t.specName.equals(n)) {
                return t;
            }
        }
        return null;
    }
}
