package cctk.diagnose.verdict;

/**
 * One test (a mode and an operation) seen across the nodes, with the current suspects left out of every reference
 * ({@link Culprits}): each node's figure is the median of its pairs with partners that are not suspect, held against
 * the median figure of the nodes that are not suspect; a node below its {@link Spread#limit} is slow on the test. So a
 * slow node drags neither its partners' figures nor the reference, however few nodes there are. The pairs' own
 * reference is the median of the pairs that touch no suspect. Each node also counts how many of its
 * pairs are below threshold × the reference: all of them ({@code slowPairs}, the evidence) and those with partners
 * that are not suspect ({@code below}, what {@link Attribution} weighs).
 * Linear in the pairs: one sequential pass sorts them into the nodes' rows, medians are selections, not sorts.
 * <b>Note:</b> not threadsafe; built by {@link Culprits}.
 */
final class TestView {

    final int test;
    final double[] nodeFigure;
    final double nodeReference;
    Spread nodeSpread;
    final boolean[] slow;
    final int[] slowPairs;
    final int[] measuredPairs;
    final double pairReference;
    Spread pairSpread;
    /** Per node: its figures (with partners not suspect) below threshold × the reference. */
    final int[] below;
    /** Per node: its figures with partners not suspect. */
    final int[] partners;
    /** The figures of the nodes that are not suspect, what {@link #nodeSpread} is the spread of. */
    double[] peerNodes;
    /** The pairs that {@link #pairSpread} is the spread of. */
    double[] peerPairs;

    /** Most pairs the pair reference is taken over: evenly spaced beyond that. */
    static final int REFERENCE_SAMPLE = 1 << 17;
    /** Most partners a node's figure is the median of: evenly spaced beyond that (above 513 nodes). */
    static final int NODE_SAMPLE = 512;

    /**
     * The view of one test with the nodes of {@code suspect} left out of the references; {@code byNode} is scratch
     * of n rows (shared by the tests of one judgement). A pair {a, b} joins both rows when a + b is a multiple of
     * the sampling step (1 up to 513 nodes: every pair), so every node gets about the same number of partners and
     * the reads stay sequential at any n.
     */
    TestView(final Figures f, final int test, final double threshold, final double[][] byNode,
             final boolean[] suspect) {
        this.test = test;
        final int n = f.nodes().size();
        final double[] pairs = f.pairs(test);
        final int step = Math.max(1, (n - 1 + NODE_SAMPLE - 1) / NODE_SAMPLE);
        partners = new int[n];
        int rowStart = 0;
        for (int a = 0; a < n; a++) {
            for (int b = a + 1 + Math.floorMod(-(2 * a + 1), step); b < n; b += step) {
                final double v = pairs[rowStart + b - a - 1];
                if (Double.isFinite(v)) {
                    if (!suspect[b]) {
                        byNode[a][partners[a]++] = v;
                    }
                    if (!suspect[a]) {
                        byNode[b][partners[b]++] = v;
                    }
                }
            }
            rowStart += n - a - 1;
        }
        nodeFigure = new double[n];
        final double[] healthy = new double[n];
        int h = 0;
        for (int i = 0; i < n; i++) {
            nodeFigure[i] = Medians.ofScratch(byNode[i], partners[i]);
            if (!suspect[i]) {
                healthy[h++] = nodeFigure[i];
            }
        }
        peerNodes = java.util.Arrays.copyOf(healthy, h);
        nodeSpread = h > 0 ? Spread.of(healthy, h, threshold) : Spread.of(nodeFigure, threshold);
        nodeReference = nodeSpread.median();
        slow = new boolean[n];
        below = new int[n];
        final double bar = threshold * nodeReference;
        for (int i = 0; i < n; i++) {
            slow[i] = nodeSpread.slow(nodeFigure[i]);
            for (int k = 0; k < partners[i]; k++) {
                if (byNode[i][k] < bar) {
                    below[i]++;
                }
            }
        }
        pairSpread = cleanSpread(pairs, n, threshold, suspect);
        pairReference = pairSpread.median();
        slowPairs = new int[n];
        measuredPairs = new int[n];
        int idx = 0;
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++, idx++) {
                if (Double.isFinite(pairs[idx])) {
                    measuredPairs[a]++;
                    measuredPairs[b]++;
                    if (pairs[idx] < bar) {
                        slowPairs[a]++;
                        slowPairs[b]++;
                    }
                }
            }
        }
    }

    /** The spread of the pairs touching no suspect (an evenly spaced sample when there are many). */
    private Spread cleanSpread(final double[] pairs, final int n, final double threshold, final boolean[] suspect) {
        final int stride = Math.max(1, pairs.length / REFERENCE_SAMPLE);
        final double[] clean = new double[Math.min(pairs.length, REFERENCE_SAMPLE + 1)];
        int c = 0;
        int rowStart = 0;
        for (int a = 0; a < n; a++) {
            final int rowEnd = rowStart + n - a - 1;
            for (int idx = rowStart + Math.floorMod(-rowStart, stride); idx < rowEnd && c < clean.length;
                 idx += stride) {
                final int b = a + 1 + idx - rowStart;
                if (!suspect[a] && !suspect[b] && Double.isFinite(pairs[idx])) {
                    clean[c++] = pairs[idx];
                }
            }
            rowStart = rowEnd;
        }
        peerPairs = java.util.Arrays.copyOf(clean, c);
        return c > 0 ? Spread.of(clean, c, threshold) : nodeSpread;
    }

    /**
     * Widens the scatter of this test's nodes and pairs to at least {@code node} and {@code pair} × their medians
     * (the run's typical scatter, {@link Culprits}), and judges the nodes again.
     */
    void widen(final double node, final double pair, final double threshold) {
        nodeSpread = nodeSpread.atLeast(node, threshold);
        pairSpread = pairSpread.atLeast(pair, threshold);
        for (int i = 0; i < slow.length; i++) {
            slow[i] = nodeSpread.slow(nodeFigure[i]);
        }
    }

    /** The node's ratio to the reference on this test (NaN when not measured). */
    double ratio(final int i) {
        return nodeReference > 0 ? nodeFigure[i] / nodeReference : Double.NaN;
    }

    /** Node {@code i}'s evidence on this test. */
    Evidence node(final Figures f, final int i) {
        return new Evidence(f.testName(test), nodeFigure[i], nodeReference, nodeSpread.limit(), slowPairs[i],
                measuredPairs[i]);
    }
}
