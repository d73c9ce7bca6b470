package cctk.diagnose.verdict;

import java.util.ArrayList;
import java.util.List;

/**
 * The references of a judgement, made so that a few slow nodes cannot drag them: find the node that {@link Attribution}
 * names worst, leave it out of every reference (its partners' figures, the peers' median, the pairs' median), look
 * again, until no other node is named. Where nobody is named the references may still be dragged (a whole slow
 * node on four nodes makes three of the six pairs slow, and every node's median has a slow pair in it), so the node
 * that is lowest against the pairs that do not touch it is left out on trial, and stays out only if it is then
 * named, nearly all its measurements of some mode below the threshold (the sign test of {@link Attribution}: the lowest
 * of the nodes is picked, so standing out of a scatter estimated from three peers is not enough). At most fewer
 * than half the nodes are left out (peers are the majority); after {@link #ONE_BY_ONE} rounds every named node is
 * left out at once, so a cluster with many faults costs a few passes over the pairs, not one per fault. Each test's
 * scatter (MAD) is at least the run's, pooled over every test relative to each test's median: with four nodes a
 * test has three healthy pairs, and their MAD alone is noise.
 * <b>Note:</b> threadsafe (no state).
 */
final class Culprits {

    /** Rounds that leave out one node each, the worst; later rounds leave out every node named. */
    static final int ONE_BY_ONE = 8;
    /** Most nodes whose trial candidate is found against the pairs that do not touch it (above: its peers). */
    static final int LEAVE_ONE_OUT = 64;

    private Culprits() {
    }

    /** Each test's view of {@code f} with the culprits left out of the references. */
    static TestView[] views(final Figures f, final double threshold) {
        final int n = f.nodes().size();
        final double[][] byNode = new double[n][Math.max(1, Math.min(n - 1, 2 * TestView.NODE_SAMPLE + 2))];
        final boolean[] out = new boolean[n];
        int left = 0;
        TestView[] views = build(f, threshold, byNode, out);
        for (int round = 0; 2 * (left + 1) < n; round++) {
            final Attribution blame = new Attribution(f, views, threshold);
            final List<Integer> named = new ArrayList<>();
            int worst = -1;
            for (int i = 0; i < n; i++) {
                final List<Suspect> s = new ArrayList<>();
                if (!out[i]) {
                    blame.node(i, s);
                }
                if (!s.isEmpty()) {
                    named.add(i);
                    worst = worst < 0 || blame.worst(i) < blame.worst(worst) ? i : worst;
                }
            }
            if (named.isEmpty()) {
                final int c = lowest(f, views, out);
                if (c < 0) {
                    return views;
                }
                out[c] = true;
                final TestView[] trial = build(f, threshold, byNode, out);
                final List<Suspect> s = new ArrayList<>();
                final Attribution onTrial = new Attribution(f, trial, threshold);
                onTrial.node(c, s);
                if (s.isEmpty() || !onTrial.signed(c)) {
                    out[c] = false;
                    return views;
                }
                left++;
                views = trial;
                continue;
            }
            for (final int i : round < ONE_BY_ONE ? List.of(worst) : named) {
                if (2 * (left + 1) < n) {
                    out[i] = true;
                    left++;
                }
            }
            views = build(f, threshold, byNode, out);
        }
        return views;
    }

    /** Every test's view with the nodes of {@code out} left out, each scatter widened to the run's. */
    private static TestView[] build(final Figures f, final double threshold, final double[][] byNode,
                                    final boolean[] out) {
        final TestView[] views = new TestView[f.tests()];
        final double[][] nodes = new double[views.length][];
        final double[][] pairs = new double[views.length][];
        final double[] nodeMedians = new double[views.length];
        final double[] pairMedians = new double[views.length];
        for (int t = 0; t < views.length; t++) {
            views[t] = new TestView(f, t, threshold, byNode, out);
            nodes[t] = views[t].peerNodes;
            pairs[t] = views[t].peerPairs;
            nodeMedians[t] = views[t].nodeSpread.median();
            pairMedians[t] = views[t].pairSpread.median();
        }
        final double node = Spread.pooled(nodes, nodeMedians);
        final double pair = Spread.pooled(pairs, pairMedians);
        for (final TestView v : views) {
            v.widen(node, pair, threshold);
        }
        return views;
    }

    /** The node not left out that is lowest against its peers on some mode (-1: none). */
    private static int lowest(final Figures f, final TestView[] views, final boolean[] out) {
        final int ops = Figures.PAIR_OPS.size();
        int best = -1;
        double lowest = Double.POSITIVE_INFINITY;
        for (int c = 0; c < out.length; c++) {
            if (out[c]) {
                continue;
            }
            for (int m = 0; m < f.modes().size(); m++) {
                double sum = 0;
                for (int op = 0; op < ops; op++) {
                    final TestView v = views[Figures.test(m, op)];
                    sum += out.length > LEAVE_ONE_OUT ? v.ratio(c) : against(f, v.test, v.nodeFigure[c], out, c);
                }
                if (sum / ops < lowest) {
                    lowest = sum / ops;
                    best = c;
                }
            }
        }
        return best;
    }

    /** {@code figure} of node {@code c} on {@code test} against the median pair touching neither it nor {@code out}. */
    static double against(final Figures f, final int test, final double figure, final boolean[] out, final int c) {
        final double ref = reference(f, test, out, c);
        return ref > 0 ? figure / ref : Double.NaN;
    }

    /** The median pair on {@code test} that touches neither node {@code c} nor a node of {@code out}. */
    static double reference(final Figures f, final int test, final boolean[] out, final int c) {
        final int n = out.length;
        final double[] pairs = f.pairs(test);
        final double[] others = new double[pairs.length];
        int k = 0;
        int idx = 0;
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++, idx++) {
                if (a != c && b != c && !out[a] && !out[b] && Double.isFinite(pairs[idx])) {
                    others[k++] = pairs[idx];
                }
            }
        }
        return Medians.ofScratch(others, k);
    }
}
