package cctk.diagnose.verdict;

/**
 * The round-robin ("circle method") schedule of a diagnosis's node pairs: with n nodes, n − 1 rounds of n/2
 * disjoint pairs (n even), or n rounds in which one node sits out (n odd: a bye). Over all rounds every pair of
 * nodes meets exactly once, and in one round no node is in two pairs, so a round's pairs run at the same time.
 * The partner of a node in a round is computed, never stored: O(1) per question at any n.
 * <b>Note:</b> threadsafe (immutable).
 */
public final class Tournament {

    /** The partner a node has in a round where it sits out. */
    public static final int BYE = -1;

    private final int nodes;
    private final int seats;

    /** The schedule of {@code nodes} nodes (≥ 1). */
    public Tournament(final int nodes) {
        if (nodes < 1) {
            throw new IllegalArgumentException("a tournament needs at least one node: " + nodes);
        }
        this.nodes = nodes;
        this.seats = nodes % 2 == 0 ? nodes : nodes + 1;
    }

    /** Nodes in the schedule. */
    public int nodes() {
        return nodes;
    }

    /** Rounds: n − 1 for an even n, n for an odd n (one bye per round), 0 for a single node. */
    public int rounds() {
        return nodes == 1 ? 0 : seats - 1;
    }

    /** Pairs in one round: ⌊n / 2⌋. */
    public int pairsPerRound() {
        return nodes / 2;
    }

    /**
     * The partner of {@code node} in {@code round}, or {@link #BYE}. Seat {@code seats − 1} stays put and
     * meets seat {@code round}; every other seat {@code x} meets {@code (2·round − x) mod (seats − 1)}.
     */
    public int partner(final int node, final int round) {
        if (node < 0 || node >= nodes || round < 0 || round >= rounds()) {
            throw new IllegalArgumentException("no node " + node + " in round " + round + " of " + rounds());
        }
        final int last = seats - 1;
        final int p;
        if (node == last) {
            p = round;
        } else if (node == round) {
            p = last;
        } else {
            p = Math.floorMod(2 * round - node, last);
        }
        return p >= nodes ? BYE : p;
    }

    /** The pairs of {@code round} as {a0, b0, a1, b1, ...} with a < b, in order of a. */
    public int[] pairs(final int round) {
        final int[] out = new int[2 * pairsPerRound()];
        int k = 0;
        for (int a = 0; a < nodes; a++) {
            final int b = partner(a, round);
            if (b > a) {
                out[k++] = a;
                out[k++] = b;
            }
        }
        return out;
    }

    /** Pairs of n nodes: n(n − 1)/2. */
    public static long pairCount(final int n) {
        return (long) n * (n - 1) / 2;
    }

    /** The index of pair {a, b} (a ≠ b, either order) among the n(n − 1)/2 pairs, ordered by (min, max). */
    public static int pairIndex(final int n, final int a, final int b) {
        final int lo = Math.min(a, b);
        final int hi = Math.max(a, b);
        if (lo < 0 || hi >= n || lo == hi) {
            throw new IllegalArgumentException("no pair " + a + "-" + b + " among " + n + " nodes");
        }
        return (int) ((long) lo * (2L * n - lo - 1) / 2 + (hi - lo - 1));
    }
}
