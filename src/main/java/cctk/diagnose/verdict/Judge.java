package cctk.diagnose.verdict;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rules that turn a diagnosis's figures into suspects. A figure below {@code threshold} × its peers' median
 * is slow. Per test (mode × operation) a node's figure is the median of its pairs, so one bad node does not make
 * its partners look bad ({@link TestView}). Then, per node: slow on every NIC (or on the only mode of a spec
 * without NICs) names the <em>node</em>; slow on some NICs names <em>node+NIC</em> for each; slow only when
 * striping names the node too. A node or node+NIC suspect explains all its pairs on those modes, so they are not
 * named again; a slow pair that neither node explains names the <em>pair</em> on that mode. Inside a node (its
 * ranks alone) and rank arrival skew are judged per pass. {@link #confirm} keeps a suspect only when a repeat is
 * slow again.
 * <b>Note:</b> threadsafe (no state).
 */
public final class Judge {

    /** Partners a node suspect is measured again with, per mode. */
    static final int RECHECK_PARTNERS = 2;

    private Judge() {
    }

    /** The first look: suspects and what would confirm them. */
    public static Findings tentative(final Figures f, final double threshold) {
        final int n = f.nodes().size();
        final TestView[] views = new TestView[f.tests()];
        final double[][] byNode = new double[n][Math.max(1, Math.min(n - 1, 2 * TestView.NODE_SAMPLE + 2))];
        for (int t = 0; t < views.length; t++) {
            views[t] = new TestView(f, t, threshold, byNode);
        }
        final List<Suspect> suspects = new ArrayList<>();
        final List<List<Recheck>> rechecks = new ArrayList<>();
        final Blame blame = new Blame(f, views);
        for (int i = 0; i < n; i++) {
            blame.node(i, suspects);
        }
        blame.pairs(threshold, suspects);
        final double[] intraRef = new double[Figures.PASSES];
        for (int p = 0; p < Figures.PASSES; p++) {
            final double[] row = new double[n];
            for (int i = 0; i < n; i++) {
                row[i] = f.intra(p, i);
            }
            intraRef[p] = Medians.of(row);
        }
        for (int i = 0; i < n; i++) {
            if (f.intra(0, i) < threshold * intraRef[0]) {
                suspects.add(new Suspect(Suspect.Kind.NODE, i, -1, -1, "intra-node", List.of(new Evidence(
                        "intra-node all_reduce", f.intra(0, i), intraRef[0], 1, 1, Double.NaN, true)), false));
            }
        }
        for (final RankSkew[] passes : f.ranks().values()) {
            final RankSkew s = passes[0];
            if (ArrivalSkew.straggles(s, threshold)) {
                suspects.add(new Suspect(Suspect.Kind.RANK, s.node(), -1, s.rank(), "arrival", List.of(new Evidence(
                        "arrival skew", s.lateUs(), s.iterUs(), s.last(), s.iterations(), Double.NaN, true)), false));
            }
        }
        int notRepeated = 0;
        int budget = Math.max(16, 2 * n);
        final boolean[] named = blame.namedNodes(suspects);
        for (final Suspect s : suspects) {
            final List<Recheck> r = rechecksOf(s, f, named);
            if (r.size() > budget) {
                rechecks.add(List.of());
                notRepeated++;
            } else {
                rechecks.add(r);
                budget -= r.size();
            }
        }
        final double[] pairRef = new double[views.length];
        final double[] nodeRef = new double[views.length];
        for (int t = 0; t < views.length; t++) {
            pairRef[t] = views[t].pairReference;
            nodeRef[t] = views[t].nodeReference;
        }
        return new Findings(suspects, rechecks, pairRef, nodeRef, intraRef, notRepeated);
    }

    /** The verdict: each suspect confirmed when one of its slow tests is slow again on repeat. */
    public static List<Suspect> confirm(final Findings found, final Figures f, final double threshold,
                                        final boolean repeat) {
        final List<Suspect> out = new ArrayList<>();
        for (int k = 0; k < found.suspects().size(); k++) {
            final Suspect s = found.suspects().get(k);
            if (!repeat) {
                out.add(s.withRepeat(s.evidence(), true));
                continue;
            }
            final List<Evidence> again = new ArrayList<>();
            boolean held = false;
            for (final Evidence e : s.evidence()) {
                final double value = repeated(s, e, found.rechecks().get(k), f);
                final double peers = s.kind() == Suspect.Kind.NODE && "intra-node".equals(s.where())
                        ? found.intraReference()[1] : e.peers();
                final boolean slow = s.kind() == Suspect.Kind.RANK
                        ? ArrivalSkew.straggles(f.ranks().get(s.rank())[1], threshold)
                        : value < threshold * peers;
                again.add(e.repeated(value, slow));
                held |= slow;
            }
            out.add(s.withRepeat(again, held));
        }
        return out;
    }

    /** Suspects confirmed first, each group broadest kind first, then by node. */
    public static List<Suspect> ordered(final List<Suspect> suspects) {
        final List<Suspect> out = new ArrayList<>(suspects);
        out.sort(Comparator.comparing((Suspect s) -> !s.confirmed()).thenComparing(Suspect::kind)
                .thenComparingInt(Suspect::node).thenComparingInt(Suspect::peer).thenComparingInt(Suspect::rank));
        return out;
    }

    private static double repeated(final Suspect s, final Evidence e, final List<Recheck> rechecks, final Figures f) {
        if (s.kind() == Suspect.Kind.RANK) {
            final RankSkew second = f.ranks().get(s.rank())[1];
            return second == null ? Double.NaN : second.lateUs();
        }
        if ("intra-node".equals(s.where())) {
            return f.intra(1, s.node());
        }
        final int test = testOf(f, e.test());
        final double[] values = new double[rechecks.size()];
        int k = 0;
        for (final Recheck r : rechecks) {
            if (Figures.modeOf(test) == r.mode()) {
                values[k++] = f.repeat(test, r.a(), r.b());
            }
        }
        return Medians.of(values, k);
    }

    private static int testOf(final Figures f, final String name) {
        for (int t = 0; t < f.tests(); t++) {
            if (f.testName(t).equals(name)) {
                return t;
            }
        }
        throw new IllegalStateException("no test " + name);
    }

    private static List<Recheck> rechecksOf(final Suspect s, final Figures f, final boolean[] named) {
        if (s.kind() == Suspect.Kind.RANK || "intra-node".equals(s.where())) {
            return List.of();
        }
        final Map<Recheck, Boolean> out = new LinkedHashMap<>();
        for (final Evidence e : s.evidence()) {
            final int mode = Figures.modeOf(testOf(f, e.test()));
            if (s.kind() == Suspect.Kind.PAIR) {
                out.put(Recheck.of(s.node(), s.peer(), mode), true);
                continue;
            }
            for (final int j : partners(s.node(), named, RECHECK_PARTNERS)) {
                out.put(Recheck.of(s.node(), j, mode), true);
            }
        }
        return List.copyOf(out.keySet());
    }

    /** Up to {@code count} nodes after {@code node} (wrapping) that no suspect names; others when too few. */
    static List<Integer> partners(final int node, final boolean[] named, final int count) {
        final int n = named.length;
        final List<Integer> out = new ArrayList<>();
        for (int pass = 0; pass < 2 && out.size() < count; pass++) {
            for (int d = 1; d < n && out.size() < count; d++) {
                final int j = (node + d) % n;
                if ((pass == 1 || !named[j]) && !out.contains(j)) {
                    out.add(j);
                }
            }
        }
        return out;
    }
}
