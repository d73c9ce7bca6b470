package cctk.comm;

import java.util.Locale;

/** The collectives cctk benchmarks, with the names specs and result files use. */
public enum CollectiveType {
    ALL_REDUCE("all_reduce", "AllReduce", true),
    ALL_GATHER("all_gather", "AllGather", false),
    REDUCE_SCATTER("reduce_scatter", "ReduceScatter", true),
    BROADCAST("broadcast", "Broadcast", false),
    REDUCE("reduce", "Reduce", true),
    ALLTOALL("alltoall", "AllToAll", false),
    /** All-to-all with per-peer counts that differ (a spread or a matrix file). */
    ALLTOALLV("alltoallv", "AllToAllv", false),
    /** The ring pattern of nccl-tests' sendrecv: send to rank+1, receive from rank-1. */
    SENDRECV("sendrecv", "SendRecv", false),
    BARRIER("barrier", "Barrier", false);

    private final String specName;
    private final String title;
    private final boolean reduces;

    CollectiveType(final String specName, final String title, final boolean reduces) {
        this.specName = specName;
        this.title = title;
        this.reduces = reduces;
    }

    public String specName() {
        return specName;
    }

    /** The name in profile files, e.g. {@code AllReduce}. */
    public String title() {
        return title;
    }

    /** Whether the collective takes a reduce operator. */
    public boolean reduces() {
        return reduces;
    }

    /** The collective for a spec name (case-insensitive; '-' and '_' alike), or null. */
    public static CollectiveType bySpecName(final String name) {
        final String n = name.toLowerCase(Locale.ROOT).replace('-', '_');
        for (final CollectiveType c : values()) {
            if (c.specName.equals(n)) {
                return c;
            }
        }
        return null;
    }
}
