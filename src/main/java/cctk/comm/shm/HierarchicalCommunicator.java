package cctk.comm.shm;

import cctk.CctkException;
import cctk.comm.CollectiveType;
import cctk.comm.CommBuffer;
import cctk.comm.Communicator;
import cctk.comm.DType;
import cctk.comm.HostCommunicator;
import cctk.comm.ReduceOp;
import cctk.comm.Reductions;
import cctk.comm.Store;
import cctk.comm.HostBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.IntFunction;

/**
 * Collectives across nodes in two levels: a node's ranks through shared memory ({@link ShmCommunicator}), the nodes
 * through one leader each (the node's first rank) over an inter-node communicator that runs in place on the node's
 * shared memory ({@link NodeStaging}). All-reduce: reduce to the leader, all-reduce among leaders, broadcast from
 * the leader; all-gather, reduce-scatter, broadcast, reduce and all-to-all likewise. Ranks sit in blocks: world rank
 * = node * ranksPerNode + local rank, every node holding the same number. Within one node everything is the node's
 * shm communicator; across nodes, alltoallv and sendrecv run on a flat communicator of all ranks (every pair, the
 * node's own pairs included, over that backend), or are not offered when there is none ({@link #unsupported}).
 * Buffers come from the node's shm communicator.
 * {@link HostCommunicator} checks the arguments against the whole group; each level checks its buffers.
 * <b>Note:</b> not threadsafe: one thread drives a communicator.
 */
public final class HierarchicalCommunicator extends HostCommunicator<CommBuffer> {

    private final int perNode;
    private final int node;
    private final int nodes;
    private final int local;
    private final String name;
    private final ShmCommunicator shm;
    private final Communicator leaders;
    private final Communicator flat;
    private final NodeStaging st;

    private HierarchicalCommunicator(final int rank, final int size, final int perNode, final String name,
                                     final ShmCommunicator shm, final Communicator leaders, final Communicator flat) {
        super(rank, size, "shm", OwnSegments.MAX_BYTES);
        this.perNode = perNode;
        this.node = rank / perNode;
        this.nodes = size / perNode;
        this.local = rank % perNode;
        this.name = name;
        this.shm = shm;
        this.leaders = leaders;
        this.flat = flat;
        this.st = new NodeStaging(shm);
    }

    /**
     * Connects this rank's node group through shared memory (keys and segment names under
     * {@code options.keyPrefix() + "/node" + node}) and, on the node's leader, the inter-node communicator that
     * {@code leadersOf} connects as rank {@code node} of {@code size / ranksPerNode} (e.g. a tcp communicator; it
     * must run on the node's {@link HostBuffer}s in place). {@code flat}, a communicator of all {@code size} ranks,
     * or null, carries alltoallv and sendrecv across nodes; it is closed with this one, also when connecting fails.
     */
    public static HierarchicalCommunicator connect(final ShmOptions options, final int rank, final int size,
                                                   final int ranksPerNode, final Store store,
                                                   final IntFunction<Communicator> leadersOf,
                                                   final Communicator flat) {
        if (ranksPerNode < 1 || size % ranksPerNode != 0 || rank < 0 || rank >= size) {
            if (flat != null) {
                flat.close();
            }
            throw CctkException.usage("a hierarchical communicator needs the same number of ranks on every node;"
                    + " rank " + rank + " of " + size + " with " + ranksPerNode + " per node does not fit.");
        }
        final int node = rank / ranksPerNode;
        final List<Integer> worldRanks = new ArrayList<>();
        for (int l = 0; l < ranksPerNode; l++) {
            worldRanks.add(node * ranksPerNode + l);
        }
        ShmCommunicator shm = null;
        try {
            shm = ShmCommunicator.connect(options.withKeyPrefix(options.keyPrefix() + "/node" + node)
                    .namingRanks(worldRanks), rank % ranksPerNode, ranksPerNode, store);
            final Communicator leaders = rank % ranksPerNode == 0 && size > ranksPerNode ? leadersOf.apply(node)
                    : null;
            return new HierarchicalCommunicator(rank, size, ranksPerNode, options.backend(), shm, leaders, flat);
        } catch (final RuntimeException e) {
            if (shm != null) {
                shm.close();
            }
            if (flat != null) {
                flat.close();
            }
            throw e;
        }
    }

    /** The name the options give, the same on every rank. */
    @Override
    public String backend() {
        return name;
    }

    /**
     * One line for the rank's header: "node 0 of 2: shm to rank 1 (zero-copy; ...); tcp over eth0,eth1 to rank 2
     * (leaders); tcp over eth0,eth1 to rank 3; tcp over lo to rank 1 (sendrecv, alltoallv)".
     */
    @Override
    public String transports() {
        final StringBuilder t = new StringBuilder("node " + node + " of " + nodes + ": " + shm.transports());
        if (leaders != null) {
            t.append("; ").append(leaders.transports()).append(" (leaders)");
        }
        final String f = flat == null || nodes == 1 ? null : flat.transports();
        if (f != null && f.startsWith("tcp over")) {
            t.append("; ").append(f).append(" (sendrecv, alltoallv)");
        }
        return t.toString();
    }

    /** The NICs of the inter-node and flat communicators' connections, or "none" (only shared memory). */
    @Override
    public String carriers() {
        final TreeSet<String> nics = new TreeSet<>();
        for (final Communicator c : new Communicator[] {leaders, flat}) {
            final String n = c == null ? null : c.carriers();
            if (n != null && !"none".equals(n)) {
                nics.addAll(List.of(n.split(",")));
            }
        }
        return nics.isEmpty() ? "none" : String.join(",", nics);
    }

    @Override
    public CommBuffer allocate(final long bytes) {
        return shm.allocate(bytes);
    }

    /** Frees a buffer {@link #allocate} returned: its cached slices are dropped, its segment goes at once. */
    @Override
    public void free(final CommBuffer buffer) {
        st.forget(buffer);
        shm.free(buffer);
    }

    @Override
    public String unsupported(final CollectiveType collective, final DType type, final ReduceOp op,
                              final boolean inPlace) {
        if (nodes > 1 && flat == null && (collective == CollectiveType.ALLTOALLV
                || collective == CollectiveType.SENDRECV)) {
            return "the hierarchical backend runs " + collective.specName() + " only within one node";
        }
        return shm.unsupported(collective, type, op, inPlace);
    }

    /** The levels check the buffers: each its own. */
    @Override
    protected CommBuffer in(final CommBuffer buffer, final int bytes, final DType type) {
        return buffer;
    }

    @Override
    protected CommBuffer out(final CommBuffer buffer, final int bytes, final DType type) {
        return buffer;
    }

    private boolean leads() {
        return leaders != null;
    }

    private static ReduceOp inner(final ReduceOp op) {
        return op == ReduceOp.AVG ? ReduceOp.SUM : op; // the mean of means is not the mean: divide once, at the end
    }

    private void divide(final HostBuffer b, final long count, final DType type) {
        Reductions.divide(type, b.memory.typed(type), b.offset / type.bytes(), (int) count, size);
    }

    @Override
    protected void runAllReduce(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                                final ReduceOp op) {
        if (nodes == 1 || count == 0) {
            shm.allReduce(send, recv, count, type, op);
            return;
        }
        final HostBuffer s = st.shm(0, count * type.bytes());
        shm.reduce(send, s, count, type, inner(op), 0);
        if (leads()) {
            leaders.allReduce(s, s, count, type, inner(op));
            leaders.synchronize();
            if (op == ReduceOp.AVG) {
                divide(s, count, type);
            }
        }
        shm.broadcast(s, recv, count, type, 0);
    }

    @Override
    protected void runAllGather(final CommBuffer send, final CommBuffer recv, final long sendCount,
                                final DType type) {
        if (nodes == 1 || sendCount == 0) {
            shm.allGather(send, recv, sendCount, type);
            return;
        }
        final long section = perNode * sendCount * type.bytes();
        final HostBuffer s = st.shm(0, nodes * section);
        final CommBuffer mine = st.slice(s, node * section, section);
        shm.allGather(send, mine, sendCount, type);
        if (leads()) {
            leaders.allGather(mine, s, perNode * sendCount, type);
            leaders.synchronize();
        }
        shm.broadcast(s, recv, size * sendCount, type, 0);
    }

    @Override
    protected void runReduceScatter(final CommBuffer send, final CommBuffer recv, final long recvCount,
                                    final DType type, final ReduceOp op) {
        if (nodes == 1 || recvCount == 0) {
            shm.reduceScatter(send, recv, recvCount, type, op);
            return;
        }
        final long block = recvCount * type.bytes();
        final HostBuffer s = st.shm(0, size * block);
        final HostBuffer h = st.shm(1, perNode * block);
        shm.reduce(send, s, size * recvCount, type, inner(op), 0);
        if (leads()) {
            leaders.reduceScatter(s, h, perNode * recvCount, type, inner(op));
            leaders.synchronize();
            if (op == ReduceOp.AVG) {
                divide(h, perNode * recvCount, type);
            }
        }
        shm.broadcast(h, h, perNode * recvCount, type, 0); // the node's section; each rank keeps its block
        st.out(1, local * block, recv, 0, block);
    }

    @Override
    protected void runBroadcast(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                                final int root) {
        if (nodes == 1 || count == 0) {
            shm.broadcast(send, recv, count, type, root);
            return;
        }
        final long bytes = count * type.bytes();
        final int rootNode = root / perNode;
        final HostBuffer s = st.shm(0, bytes);
        if (node == rootNode) {
            shm.broadcast(send, recv, count, type, root % perNode);
        }
        if (leads()) {
            if (node == rootNode) {
                st.in(recv, 0, 0, 0, bytes);
            }
            leaders.broadcast(s, s, count, type, rootNode);
            leaders.synchronize();
        }
        if (node != rootNode) {
            shm.broadcast(s, recv, count, type, 0);
        }
    }

    @Override
    protected void runReduce(final CommBuffer send, final CommBuffer recv, final long count, final DType type,
                             final ReduceOp op, final int root) {
        if (nodes == 1 || count == 0) {
            shm.reduce(send, recv, count, type, op, root);
            return;
        }
        final long bytes = count * type.bytes();
        final int rootNode = root / perNode;
        final HostBuffer s = st.shm(0, bytes);
        final HostBuffer h = st.shm(1, bytes);
        shm.reduce(send, s, count, type, inner(op), 0);
        if (leads()) {
            leaders.reduce(s, s, count, type, inner(op), rootNode);
            leaders.synchronize();
            if (node == rootNode && op == ReduceOp.AVG) {
                divide(s, count, type);
            }
        }
        if (node != rootNode) {
            return;
        }
        if (root % perNode == 0) {
            if (local == 0) {
                st.out(0, 0, recv, 0, bytes);
            }
            return;
        }
        shm.broadcast(s, h, count, type, 0); // from the leader to the root, through the node
        if (local == root % perNode) {
            st.out(1, 0, recv, 0, bytes);
        }
    }

    @Override
    protected void runAllToAll(final CommBuffer send, final CommBuffer recv, final long countPerPeer,
                               final DType type) {
        if (nodes == 1 || countPerPeer == 0) {
            shm.allToAll(send, recv, countPerPeer, type);
            return;
        }
        final long block = countPerPeer * type.bytes();
        final long row = size * block;
        final HostBuffer gathered = st.shm(0, perNode * row); // [source local rank][destination world rank]
        final HostBuffer sorted = st.shm(1, perNode * row);   // [destination local rank][source world rank]
        shm.allGather(send, gathered, size * countPerPeer, type);
        if (leads()) {
            final HostBuffer out = st.shm(2, perNode * row); // [destination node][source local][destination local]
            final HostBuffer in = st.shm(3, perNode * row);  // [source node][source local][destination local]
            for (int m = 0; m < nodes; m++) {
                for (int l = 0; l < perNode; l++) {
                    for (int j = 0; j < perNode; j++) {
                        st.copy(0, l * row + (m * perNode + j) * block, 2, ((m * perNode + l) * perNode + j) * block,
                                (int) block);
                    }
                }
            }
            leaders.allToAll(out, in, (long) perNode * perNode * countPerPeer, type);
            leaders.synchronize();
            for (int n = 0; n < nodes; n++) {
                for (int l = 0; l < perNode; l++) {
                    for (int j = 0; j < perNode; j++) {
                        st.copy(3, ((n * perNode + l) * perNode + j) * block, 1,
                                ((long) j * size + n * perNode + l) * block, (int) block);
                    }
                }
            }
        }
        shm.broadcast(sorted, sorted, perNode * size * countPerPeer, type, 0);
        st.out(1, local * row, recv, 0, row);
    }

    @Override
    protected void runAllToAllv(final CommBuffer send, final long[] sendCounts, final long[] sendDispls,
                                final CommBuffer recv, final long[] recvCounts, final long[] recvDispls,
                                final DType type) {
        if (nodes == 1) {
            shm.allToAllv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls, type);
            return;
        }
        refuseWithoutFlat(CollectiveType.ALLTOALLV);
        flat.allToAllv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls, type);
    }

    @Override
    protected void runSendRecv(final CommBuffer send, final int sendPeer, final CommBuffer recv, final int recvPeer,
                               final long count, final DType type) {
        if (nodes == 1) {
            shm.sendRecv(send, sendPeer, recv, recvPeer, count, type);
            return;
        }
        refuseWithoutFlat(CollectiveType.SENDRECV);
        flat.sendRecv(send, sendPeer, recv, recvPeer, count, type);
    }

    private void refuseWithoutFlat(final CollectiveType collective) {
        if (flat == null) {
            throw CctkException.usage(unsupported(collective, null, null, false) + ".");
        }
    }

    @Override
    protected void runBarrier() {
        shm.barrier();
        if (leads()) {
            leaders.barrier();
        }
        shm.barrier();
    }

    @Override
    public void close() {
        try {
            st.close();
            shm.close();
        } finally {
            if (leaders != null) {
                leaders.close();
            }
            if (flat != null) {
                flat.close();
            }
        }
    }
}
