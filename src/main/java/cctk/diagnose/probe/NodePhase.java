package cctk.diagnose.probe;

import cctk.CctkException;
import cctk.coll.AllReduce;
import cctk.comm.Communicator;
import cctk.comm.Store;
import cctk.diagnose.Keys;
import cctk.diagnose.NodeLayout;
import cctk.diagnose.Settings;
import cctk.diagnose.verdict.ArrivalSkew;
import cctk.diagnose.verdict.RankSkew;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * The ranks of one node among themselves: one communicator for the whole diagnosis, two passes of an all-reduce (after
 * untimed rounds until no rank's JIT compiles any more, at most 10 s), the first at the start and the second at the
 * end, so that the repeat is measured at another time than the first look; nodes on one kernel measure in turns
 * ({@link NodeLayout}), so that they do not take each other's cores. Between them the node's other ranks wait
 * for their leader in a barrier of this communicator, whose deadline covers the longest pairwise phase the settings
 * allow. On the leader each pass gives lines {@code intra <pass> <node> <busbw>} and {@code rank <pass> <rank> <node>
 * <iters> <last> <lateUs> <iterUs>}. Before the all-reduce of its turn every rank, a node's only rank too, measures
 * its compute rate ({@link CpuProbe}) and puts {@code cpu <pass> <rank> <node> <leader 0|1> <rate>} in the store for
 * rank 0.
 * <b>Note:</b> not threadsafe: one per rank.
 */
final class NodePhase implements AutoCloseable {

    /** The longest the untimed rounds before the first pass may take (until the JIT is quiet). */
    static final long JIT_BUDGET_NANOS = 10_000_000_000L;

    private final NodeLayout.Place me;
    private final String host;
    private final Communicator comm;
    private final Probe probe;
    private final CpuProbe cpu = new CpuProbe();

    private NodePhase(final NodeLayout.Place me, final String host, final Communicator comm, final Probe probe) {
        this.me = me;
        this.host = host;
        this.comm = comm;
        this.probe = probe;
    }

    /** Connects the node's ranks (none for a node of one rank: every pass is then empty). */
    static NodePhase open(final Settings s, final NodeLayout.Place me, final String host, final GroupLinks links,
                          final Duration longest) {
        if (me.size() < 2) {
            return new NodePhase(me, host, null, null);
        }
        try {
            final Communicator comm = links.node(Keys.nodeGroup(me.node()), me.index(), me.size(), longest);
            final Probe probe = new Probe(comm, s.diagnose().bytes(), s.diagnose().warmup(), s.diagnose().iters(),
                    s.limitNanos(), s.windowNanos());
            probe.warmUp(new AllReduce(), JIT_BUDGET_NANOS);
            return new NodePhase(me, host, comm, probe);
        } catch (final CctkException e) {
            throw failed(me, host, e);
        }
    }

    /**
     * One pass, every rank of the job at once: on a real cluster every node measures at once; nodes that share a
     * kernel measure in turns, between barriers of the job's {@code store}. Its lines on the leader, "" elsewhere.
     */
    String pass(final int pass, final Store store) {
        String lines = "";
        for (int t = 0; t < me.turns(); t++) {
            if (me.turns() > 1) {
                store.barrier(Keys.PREFIX + "turn/" + pass + "/" + t);
            }
            if (t == me.turn()) {
                cpu(pass, store);
                lines = measure(pass);
            }
        }
        return lines;
    }

    /** Every rank of the node, a node of one rank too: its compute rate of this pass, straight to rank 0. */
    private void cpu(final int pass, final Store store) {
        final int rank = me.ranks()[me.index()];
        final double rate = cpu.rate(CpuProbe.WINDOW_NANOS);
        Keys.put(store, Keys.cpu(pass, rank), "cpu " + pass + " " + rank + " " + me.node() + " " + (me.leader() ? 1 : 0)
                + " " + rate);
    }

    private String measure(final int pass) {
        if (comm == null) {
            return "";
        }
        try {
            final Probe.Measured m = probe.measure(new AllReduce());
            final double[][] all = probe.gather(m.mineUs());
            if (!me.leader()) {
                return "";
            }
            final StringBuilder lines = new StringBuilder();
            lines.append("intra ").append(pass).append(' ').append(me.node()).append(' ').append(m.busBw())
                    .append('\n');
            final int[] nodes = new int[me.size()];
            Arrays.fill(nodes, me.node());
            for (final RankSkew k : ArrivalSkew.of(me.ranks(), nodes, List.of(all))) {
                lines.append("rank ").append(pass).append(' ').append(k.rank()).append(' ').append(k.node())
                        .append(' ').append(k.iterations()).append(' ').append(k.last()).append(' ')
                        .append(k.lateUs()).append(' ').append(k.iterUs()).append('\n');
            }
            return lines.toString();
        } catch (final CctkException e) {
            throw failed(me, host, e);
        }
    }

    /** The node's ranks meet again: the others wait here for their leader's pairwise phase to end. */
    void meet() {
        if (comm != null) {
            try {
                comm.barrier();
            } catch (final CctkException e) {
                throw failed(me, host, e);
            }
        }
    }

    @Override
    public void close() {
        if (comm != null) {
            comm.close();
        }
    }

    private static CctkException failed(final NodeLayout.Place me, final String host, final CctkException e) {
        return new CctkException(e.exitCode(), "diagnosis: rank " + me.ranks()[me.index()] + " on " + host + " ("
                + (me.index() + 1) + " of the node's " + me.size() + " ranks; rank " + me.ranks()[0] + " leads),"
                + " measuring among the node's ranks over loopback: " + e.getMessage(), e);
    }
}
