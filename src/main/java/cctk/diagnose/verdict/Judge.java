package cctk.diagnose.verdict;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rules that turn a diagnosis's figures into suspects. A figure below {@code threshold} × its peers' median, and
 * out of their scatter, is slow ({@link Spread}); a node or pair is slow on a mode when every operation is. Per test
 * (mode × operation) a node's figure is the median of its pairs, so one bad node does not make its partners look bad
 * ({@link TestView}). Then, per node: slow on every NIC (or on the only mode of a spec without NICs) names the
 * <em>node</em>; slow on some NICs names <em>node+NIC</em> for each; slow only when striping names the node too. A
 * node or node+NIC suspect explains all its pairs on those modes, so they are not named again; a slow pair that
 * neither node explains names the <em>pair</em> on that mode. Inside a node (its ranks alone) and rank arrival skew
 * are judged per pass; not a node's inside when the nodes share one kernel ({@link Figures#oneKernel()}): that is one
 * machine's inside, measured at different moments, and its differences are that machine's load, not a node's fault.
 * {@link #confirm} keeps a suspect only when a repeat is slow again.
 * <b>Note:</b> threadsafe (no state).
 */
public final class Judge {

    /** Where a node suspect slow among its own ranks is. */
    static final String INTRA = "intra-node";
    /** Where a node suspect slow on every NIC is. */
    static final String ALL_NICS = "all NICs";
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
        final Attribution blame = new Attribution(f, views);
        for (int i = 0; i < n; i++) {
            blame.node(i, suspects);
        }
        blame.pairs(suspects);
        final Spread intra = intra(f, 0, threshold);
        for (int i = 0; i < n && !f.oneKernel(); i++) {
            if (intra.slow(f.intra(0, i))) {
                suspects.add(new Suspect(Suspect.Kind.NODE, i, -1, -1, INTRA, List.of(new Evidence(
                        "intra-node all_reduce", f.intra(0, i), intra.median(), intra.limit(), 1, 1)), false));
            }
        }
        final double[] floors = floors(f);
        for (final RankSkew[] passes : f.ranks().values()) {
            final RankSkew s = passes[0];
            if (ArrivalSkew.straggles(s, threshold, floors[0])) {
                suspects.add(new Suspect(Suspect.Kind.RANK, s.node(), -1, s.rank(), "arrival", List.of(new Evidence(
                        "arrival skew", s.lateUs(), s.iterUs(), Double.NaN, s.last(), s.iterations())), false));
            }
        }
        Starved.suspects(f, threshold, suspects);
        int notRepeated = 0;
        int budget = repeatBudget(n);
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
        final double[][] nodeFigure = new double[views.length][];
        final int[][] slowPairs = new int[views.length][];
        final int[][] measured = new int[views.length][];
        for (int t = 0; t < views.length; t++) {
            pairRef[t] = views[t].pairReference;
            nodeRef[t] = views[t].nodeReference;
            nodeFigure[t] = views[t].nodeFigure;
            slowPairs[t] = views[t].slowPairs;
            measured[t] = views[t].measuredPairs;
        }
        return new Findings(suspects, rechecks, pairRef, nodeRef, notRepeated, nodeFigure, slowPairs, measured,
                Sensitivity.of(f, nodeFigure, slowPairs, measured, threshold),
                Watched.of(f, nodeFigure, nodeRef, named, threshold, budget));
    }

    /**
     * {@code found} with what the run can claim once its repeats are in and {@code verdict} is confirmed
     * ({@link Watched#afterRepeat}); as it was when nothing was measured again.
     */
    public static Findings afterRepeat(final Findings found, final Figures f, final double threshold,
                                       final boolean repeat, final List<Suspect> verdict) {
        return repeat ? found.withSensitivity(Watched.afterRepeat(found, f, threshold, verdict)) : found;
    }

    /** The spread of every node's intra-node figure in pass {@code pass} (0 or 1). */
    public static Spread intra(final Figures f, final int pass, final double threshold) {
        final double[] row = new double[f.nodes().size()];
        for (int i = 0; i < row.length; i++) {
            row[i] = f.intra(pass, i);
        }
        return Spread.of(row, threshold);
    }

    /** The most pairs and modes a diagnosis of {@code nodes} nodes measures again: 2n, at least 16. */
    public static int repeatBudget(final int nodes) {
        return Math.max(16, 2 * nodes);
    }

    /**
     * The verdict: a suspect is confirmed when, on one of its modes, every operation is slow again on repeat (a
     * node's inside and a rank: when the second pass is slow again); a node's links whose leader is starved of CPU
     * are left to its CPU ({@link Starved}).
     */
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
            for (final Evidence e : s.evidence()) {
                again.add(repeated(s, e, found, k, f, threshold));
            }
            if (s.kind() == Suspect.Kind.NODE && ALL_NICS.equals(s.where())) {
                out.addAll(splitByNic(s, again, f));
            } else if (s.kind() == Suspect.Kind.RANK || INTRA.equals(s.where())) {
                out.add(s.withRepeat(again, again.stream().anyMatch(Evidence::held)));
            } else {
                out.add(s.withRepeat(again, heldModes(again, f).containsValue(true)));
            }
        }
        return Starved.leaveToCpu(out, f);
    }

    /**
     * A node slow on every NIC at first look stays the node only if every NIC is slow again; the NICs that are
     * become node+NIC suspects of their own, the others are left unconfirmed, so one noisy NIC never turns a
     * node+NIC suspect into a node suspect.
     */
    private static List<Suspect> splitByNic(final Suspect s, final List<Evidence> again, final Figures f) {
        final Map<Integer, List<Evidence>> byMode = byMode(again, f);
        final Map<Integer, Boolean> heldModes = heldModes(again, f);
        final int striped = f.modes().indexOf(Figures.STRIPED);
        final List<Integer> nics = new ArrayList<>();
        final List<Integer> held = new ArrayList<>();
        for (int m = 0; m < f.modes().size(); m++) {
            if (m != striped) {
                nics.add(m);
                if (heldModes.getOrDefault(m, false)) {
                    held.add(m);
                }
            }
        }
        if (held.size() == nics.size()) {
            return List.of(s.withRepeat(again, true));
        }
        final List<Suspect> out = new ArrayList<>();
        for (final int m : nics) {
            final List<Evidence> ev = new ArrayList<>(byMode.getOrDefault(m, List.of()));
            if (held.contains(m) && striped >= 0) {
                ev.addAll(byMode.getOrDefault(striped, List.of()));
            }
            if (!ev.isEmpty()) {
                out.add(new Suspect(Suspect.Kind.NODE_NIC, s.node(), -1, -1, f.modes().get(m), ev, held.contains(m)));
            }
        }
        return out;
    }

    private static Map<Integer, List<Evidence>> byMode(final List<Evidence> evidence, final Figures f) {
        final Map<Integer, List<Evidence>> byMode = new LinkedHashMap<>();
        for (final Evidence e : evidence) {
            byMode.computeIfAbsent(Figures.modeOf(testOf(f, e.test())), m -> new ArrayList<>()).add(e);
        }
        return byMode;
    }

    /** Per mode of the evidence: whether every operation there was slow again. */
    private static Map<Integer, Boolean> heldModes(final List<Evidence> evidence, final Figures f) {
        final Map<Integer, Boolean> out = new LinkedHashMap<>();
        byMode(evidence, f).forEach((m, ev) -> out.put(m, ev.stream().allMatch(Evidence::held)));
        return out;
    }

    /** Suspects confirmed first, each group broadest kind first, then by node. */
    public static List<Suspect> ordered(final List<Suspect> suspects) {
        final List<Suspect> out = new ArrayList<>(suspects);
        out.sort(Comparator.comparing((Suspect s) -> !s.confirmed()).thenComparing(Suspect::kind)
                .thenComparingInt(Suspect::node).thenComparingInt(Suspect::peer).thenComparingInt(Suspect::rank));
        return out;
    }

    /** {@code e} with its repeat: the second pass (a node's inside, a rank), or the median of its pairs' repeats. */
    private static Evidence repeated(final Suspect s, final Evidence e, final Findings found, final int k,
                                     final Figures f, final double threshold) {
        if (s.kind() == Suspect.Kind.RANK && Starved.CPU.equals(s.where())) {
            return Starved.repeated(s, e, f, threshold);
        }
        if (s.kind() == Suspect.Kind.RANK) {
            final RankSkew second = f.ranks().get(s.rank())[1];
            return second == null ? e.repeated(Double.NaN, Double.NaN, false)
                    : e.repeated(second.lateUs(), second.iterUs(),
                            ArrivalSkew.straggles(second, threshold, floors(f)[1]));
        }
        if (INTRA.equals(s.where())) {
            final double again = f.intra(1, s.node());
            final Spread second = intra(f, 1, threshold);
            return e.repeated(again, second.median(), second.slow(again));
        }
        final int test = testOf(f, e.test());
        final List<Recheck> rechecks = found.rechecks().get(k);
        final double[] values = new double[rechecks.size()];
        int n = 0;
        for (final Recheck r : rechecks) {
            if (Figures.modeOf(test) == r.mode()) {
                values[n++] = f.repeat(test, r.a(), r.b());
            }
        }
        final double again = Medians.of(values, n);
        return e.repeated(again, e.peers(), again < e.limit());
    }

    /** Each pass's noise floor of arrival skew. */
    private static double[] floors(final Figures f) {
        final double[] out = new double[Figures.PASSES];
        for (int p = 0; p < out.length; p++) {
            final List<RankSkew> pass = new ArrayList<>();
            for (final RankSkew[] s : f.ranks().values()) {
                if (s[p] != null) {
                    pass.add(s[p]);
                }
            }
            out[p] = ArrivalSkew.noiseFloor(pass);
        }
        return out;
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
        if (s.kind() == Suspect.Kind.RANK || INTRA.equals(s.where())) {
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
