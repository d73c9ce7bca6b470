package cctk.diagnose;

import cctk.CctkException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rank 0's plan of a diagnosis: the nodes in the order of their lowest rank (node 0 holds rank 0), and each node's
 * ranks in rank order; the first is the node's leader, which stands for the node in the pairs. Nodes that run on one
 * kernel (the same boot id: network namespaces or containers of one machine, as a test cluster is made) share its
 * cores, so their per-node passes take turns: a node's turn is its place among the nodes of its kernel, and there
 * are as many turns as the most nodes on one kernel (1 on a real cluster: every node at once). Each node's entry
 * travels through the store as one line, {@code <node> <nodes> <rank,rank,...> <turn> <turns>}, under the node's
 * name, so a rank reads only its own node's entry.
 * <b>Note:</b> threadsafe (immutable).
 */
public final class NodeLayout {

    /** Where one rank is. */
    public record Place(int node, int nodes, int index, int size, int[] ranks, int turn, int turns) {

        /** Whether this rank stands for its node in the pairs. */
        public boolean leader() {
            return index == 0;
        }
    }

    private final List<String> names;
    private final List<int[]> ranks;
    private final int[] turn;
    private final int turns;

    private NodeLayout(final List<String> names, final List<int[]> ranks, final int[] turn) {
        this.names = List.copyOf(names);
        this.ranks = List.copyOf(ranks);
        this.turn = turn.clone();
        this.turns = Arrays.stream(turn).max().orElse(0) + 1;
    }

    /** The plan from each rank's host name and kernel (boot id), by rank. */
    static NodeLayout of(final List<String> hostOfRank, final List<String> kernelOfRank) {
        final Map<String, List<Integer>> byHost = new LinkedHashMap<>();
        for (int r = 0; r < hostOfRank.size(); r++) {
            byHost.computeIfAbsent(hostOfRank.get(r), h -> new ArrayList<>()).add(r);
        }
        final List<int[]> ranks = new ArrayList<>();
        byHost.values().forEach(l -> ranks.add(l.stream().mapToInt(Integer::intValue).toArray()));
        final Map<String, Integer> onKernel = new HashMap<>();
        final int[] turn = new int[ranks.size()];
        for (int i = 0; i < turn.length; i++) {
            turn[i] = onKernel.merge(kernelOfRank.get(ranks.get(i)[0]), 1, Integer::sum) - 1;
        }
        return new NodeLayout(new ArrayList<>(byHost.keySet()), ranks, turn);
    }

    /** How many turns the per-node passes take (1: every node at once). */
    int turns() {
        return turns;
    }

    List<String> names() {
        return names;
    }

    int nodes() {
        return names.size();
    }

    /** The ranks of node {@code i}. */
    int[] ranks(final int i) {
        return ranks.get(i).clone();
    }

    /** Node {@code i}'s entry for the store. */
    String entry(final int i) {
        final StringBuilder sb = new StringBuilder().append(i).append(' ').append(names.size()).append(' ');
        final int[] r = ranks.get(i);
        for (int k = 0; k < r.length; k++) {
            sb.append(k == 0 ? "" : ",").append(r[k]);
        }
        return sb.append(' ').append(turn[i]).append(' ').append(turns).toString();
    }

    /** Where {@code rank} is, from its node's entry. */
    public static Place place(final String entry, final int rank) {
        final String[] f = entry.trim().split(" ");
        final String[] list = f[2].split(",");
        final int[] ranks = new int[list.length];
        int index = -1;
        for (int k = 0; k < list.length; k++) {
            ranks[k] = Integer.parseInt(list[k]);
            if (ranks[k] == rank) {
                index = k;
            }
        }
        if (index < 0) {
            throw new CctkException(cctk.ExitCode.INTERNAL, "rank " + rank + " is not in its node's entry '"
                    + entry + "' of the diagnosis plan.");
        }
        return new Place(Integer.parseInt(f[0]), Integer.parseInt(f[1]), index, ranks.length, ranks,
                Integer.parseInt(f[3]), Integer.parseInt(f[4]));
    }
}
