package cctk.coll;

import cctk.comm.CollectiveType;
import java.util.EnumMap;
import java.util.Map;

/** The registry: adding a collective is one class and one line here. */
public final class Collectives {

    private static final Map<CollectiveType, Collective> ALL = new EnumMap<>(CollectiveType.class);

    static {
        register(new AllReduce());
        register(new AllGather());
        register(new ReduceScatter());
        register(new Broadcast());
        register(new Reduce());
        register(new AllToAll());
        register(new AllToAllV());
        register(new SendRecv());
        register(new Barrier());
    }

    private Collectives() {
    }

    private static void register(final Collective c) {
        ALL.put(c.type(), c);
    }

    /** The implementation of {@code type}; every {@link CollectiveType} has one. */
    public static Collective of(final CollectiveType type) {
        final Collective c = ALL.get(type);
        if (c == null) {
            throw new IllegalStateException("no implementation registered for " + type);
        }
        return c;
    }
}
