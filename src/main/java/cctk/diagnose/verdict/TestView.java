package cctk.diagnose.verdict;

/**
 * One test (a mode and an operation) seen across the nodes: each node's figure is the median of its pairs, held
 * against the median node; a node below the threshold is slow on the test. The pairs' own reference is the median
 * of the pairs that touch no slow node, so that a slow node does not drag its peers' reference down.
 * Linear in the pairs: one sequential pass sorts them into the nodes' rows, medians are selections, not sorts.
 * <b>Note:</b> not threadsafe; built once by {@link Judge}.
 */
final class TestView {

    final int test;
    final double[] nodeFigure;
    final double nodeReference;
    final Spread nodeSpread;
    final boolean[] slow;
    final int[] slowPairs;
    final int[] measuredPairs;
    final double pairReference;
    final Spread pairSpread;
    /** How many pairs the pair reference is taken over (those touching no slow node, or a sample of them). */
    private int cleanPairs;

    /** Most pairs the pair reference is taken over: evenly spaced beyond that. */
    static final int REFERENCE_SAMPLE = 1 << 17;
    /** Most partners a node's figure is the median of: evenly spaced beyond that (above 513 nodes). */
    static final int NODE_SAMPLE = 512;
    /** Pairs besides the one judged that the pairs' reference must hold. */
    static final int PAIR_PEERS = 3;

    /**
     * The view of one test; {@code byNode} is scratch of n rows (shared by the tests of one judgement). A pair
     * {a, b} joins both rows when a + b is a multiple of the sampling step (1 up to 513 nodes: every pair), so
     * every node gets about the same number of partners and the reads stay sequential at any n.
     */
    TestView(final Figures f, final int test, final double threshold, final double[][] byNode) {
        this.test = test;
        final int n = f.nodes().size();
        final double[] pairs = f.pairs(test);
        final int step = Math.max(1, (n - 1 + NODE_SAMPLE - 1) / NODE_SAMPLE);
        final int[] count = new int[n];
        int rowStart = 0;
        for (int a = 0; a < n; a++) {
            for (int b = a + 1 + Math.floorMod(-(2 * a + 1), step); b < n; b += step) {
                final double v = pairs[rowStart + b - a - 1];
                if (Double.isFinite(v)) {
                    byNode[a][count[a]++] = v;
                    byNode[b][count[b]++] = v;
                }
            }
            rowStart += n - a - 1;
        }
        nodeFigure = new double[n];
        for (int i = 0; i < n; i++) {
            nodeFigure[i] = Medians.ofScratch(byNode[i], count[i]);
        }
        nodeSpread = Spread.of(nodeFigure, threshold);
        nodeReference = nodeSpread.median();
        slow = new boolean[n];
        for (int i = 0; i < n; i++) {
            slow[i] = nodeSpread.slow(nodeFigure[i]);
        }
        pairSpread = cleanSpread(pairs, n, threshold);
        pairReference = pairSpread.median();
        slowPairs = new int[n];
        measuredPairs = new int[n];
        int idx = 0;
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++, idx++) {
                if (Double.isFinite(pairs[idx])) {
                    measuredPairs[a]++;
                    measuredPairs[b]++;
                    if (pairSpread.slow(pairs[idx])) {
                        slowPairs[a]++;
                        slowPairs[b]++;
                    }
                }
            }
        }
    }

    /** The spread of the pairs touching no slow node (over an evenly spaced sample when there are very many). */
    private Spread cleanSpread(final double[] pairs, final int n, final double threshold) {
        final int stride = Math.max(1, pairs.length / REFERENCE_SAMPLE);
        final double[] clean = new double[Math.min(pairs.length, REFERENCE_SAMPLE + 1)];
        int c = 0;
        int rowStart = 0;
        for (int a = 0; a < n; a++) {
            final int rowEnd = rowStart + n - a - 1;
            for (int idx = rowStart + Math.floorMod(-rowStart, stride); idx < rowEnd && c < clean.length;
                 idx += stride) {
                final int b = a + 1 + idx - rowStart;
                if (!slow[a] && !slow[b] && Double.isFinite(pairs[idx])) {
                    clean[c++] = pairs[idx];
                }
            }
            rowStart = rowEnd;
        }
        cleanPairs = c;
        return c > 0 ? Spread.of(clean, c, threshold) : nodeSpread;
    }

    /**
     * Whether a pair can be judged against the others here: the reference holds {@link #PAIR_PEERS} pairs besides
     * it. Four nodes with one slow leave three pairs, and one of them against the other two is their scatter, not a
     * cable: CI saw node1-node2 striped at 0.57x of the two others while node3 crawled at 100 Mbit/s.
     */
    boolean pairsJudged() {
        return cleanPairs > PAIR_PEERS;
    }

    /** Node {@code i}'s evidence on this test. */
    Evidence node(final Figures f, final int i) {
        return new Evidence(f.testName(test), nodeFigure[i], nodeReference, nodeSpread.limit(), slowPairs[i],
                measuredPairs[i]);
    }
}
