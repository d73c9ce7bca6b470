package cctk.diagnose.verdict;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a diagnosis measured, in GB/s of bus bandwidth (nccl-tests' definition; NaN where nothing was measured):
 * every node pair on every <em>test</em> (a mode, i.e. one NIC or all of them striped, times an operation), each
 * node's intra-node all-reduce in two passes, each rank's arrival skew and compute rate in two passes, and the
 * repeats of the measurements that made a suspect. Pair figures live in flat arrays indexed by
 * {@link Tournament#pairIndex}: 8 bytes per pair and test, 100 MB for 2,048 nodes on 3 modes and 2 operations.
 * <b>Note:</b> not threadsafe; rank 0 fills it from one thread.
 */
public final class Figures {

    /** The mode that stripes every NIC of the spec. */
    public static final String STRIPED = "striped";
    /** The mode of a spec that names no NIC: the backend's own address. */
    public static final String DEFAULT_MODE = "default";
    /** The operations measured on each pair and mode, in test order. */
    public static final List<String> PAIR_OPS = List.of("sendrecv", "all_reduce");
    /** Measurement passes of the per-node phase (the second confirms the first). */
    public static final int PASSES = 2;

    private final List<String> nodes;
    private final List<String> modes;
    private final double[][] pairs;
    private final double[][] intra;
    private final Map<Long, Double> repeats = new HashMap<>();
    private final Map<Integer, RankSkew[]> ranks = new HashMap<>();
    private final Map<Integer, CpuRate[]> cpus = new HashMap<>();
    private boolean oneKernel;

    /**
     * Empty figures for {@code nodes} (names, in node-index order) measured on {@code modes} (NIC names, then
     * {@link #STRIPED} when there are two or more; or {@link #DEFAULT_MODE} alone).
     */
    public Figures(final List<String> nodes, final List<String> modes) {
        this.nodes = List.copyOf(nodes);
        this.modes = List.copyOf(modes);
        this.pairs = new double[modes.size() * PAIR_OPS.size()][];
        final int p = (int) Tournament.pairCount(nodes.size());
        for (int t = 0; t < pairs.length; t++) {
            pairs[t] = new double[p];
            Arrays.fill(pairs[t], Double.NaN);
        }
        this.intra = new double[PASSES][nodes.size()];
        for (final double[] row : intra) {
            Arrays.fill(row, Double.NaN);
        }
    }

    /** The modes of a spec's NIC list: each NIC, then {@link #STRIPED} for two or more; {@code [default]} for none. */
    public static List<String> modesOf(final List<String> nics) {
        if (nics.isEmpty()) {
            return List.of(DEFAULT_MODE);
        }
        if (nics.size() == 1) {
            return List.copyOf(nics);
        }
        final List<String> m = new java.util.ArrayList<>(nics);
        m.add(STRIPED);
        return List.copyOf(m);
    }

    public List<String> nodes() {
        return nodes;
    }

    public List<String> modes() {
        return modes;
    }

    /** Tests: modes × operations. */
    public int tests() {
        return pairs.length;
    }

    /** The test of {@code mode} index and operation index. */
    public static int test(final int mode, final int op) {
        return mode * PAIR_OPS.size() + op;
    }

    /** The mode index of a test. */
    public static int modeOf(final int test) {
        return test / PAIR_OPS.size();
    }

    /** {@code eth1 sendrecv}. */
    public String testName(final int test) {
        return modes.get(modeOf(test)) + " " + PAIR_OPS.get(test % PAIR_OPS.size());
    }

    /** Records the figure of pair {a, b} on a test. */
    public void pair(final int test, final int a, final int b, final double busBw) {
        pairs[test][Tournament.pairIndex(nodes.size(), a, b)] = busBw;
    }

    /** The figure of pair {a, b} on a test (NaN: not measured). */
    public double pair(final int test, final int a, final int b) {
        return pairs[test][Tournament.pairIndex(nodes.size(), a, b)];
    }

    /** Every pair's figure on a test, by pair index (the array itself: read only). */
    double[] pairs(final int test) {
        return pairs[test];
    }

    /** Records node {@code node}'s intra-node all-reduce busbw in pass 0 or 1. */
    public void intra(final int pass, final int node, final double busBw) {
        intra[pass][node] = busBw;
    }

    /** Node {@code node}'s intra-node figure of a pass (NaN: a node of one rank, or not measured). */
    public double intra(final int pass, final int node) {
        return intra[pass][node];
    }

    /**
     * Marks the nodes as sharing one kernel (network namespaces or containers of one machine: their per-node passes
     * take turns on its cores), so their insides are one machine's, measured at different moments.
     */
    public void oneKernel(final boolean shared) {
        this.oneKernel = shared;
    }

    /** Whether the nodes share one kernel ({@link #oneKernel(boolean)}). */
    public boolean oneKernel() {
        return oneKernel;
    }

    /** Records the repeat of pair {a, b} on a test. */
    public void repeat(final int test, final int a, final int b, final double busBw) {
        repeats.put(key(test, a, b), busBw);
    }

    /** The repeat of pair {a, b} on a test (NaN: not repeated). */
    public double repeat(final int test, final int a, final int b) {
        return repeats.getOrDefault(key(test, a, b), Double.NaN);
    }

    /** Records a rank's arrival skew in a pass. */
    public void rank(final int pass, final RankSkew skew) {
        ranks.computeIfAbsent(skew.rank(), r -> new RankSkew[PASSES])[pass] = skew;
    }

    /** Every rank's skews by rank: [pass], an entry null where the pass did not measure it. */
    public Map<Integer, RankSkew[]> ranks() {
        return new java.util.TreeMap<>(ranks);
    }

    /** Records a rank's compute rate in a pass. */
    public void cpu(final int pass, final CpuRate rate) {
        cpus.computeIfAbsent(rate.rank(), r -> new CpuRate[PASSES])[pass] = rate;
    }

    /** Every rank's compute rates by rank: [pass], an entry null where the pass did not measure it. */
    public Map<Integer, CpuRate[]> cpus() {
        return new java.util.TreeMap<>(cpus);
    }

    private long key(final int test, final int a, final int b) {
        return (long) test * Tournament.pairCount(nodes.size()) + Tournament.pairIndex(nodes.size(), a, b);
    }
}
