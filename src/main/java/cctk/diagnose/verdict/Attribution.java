package cctk.diagnose.verdict;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Attribution, the part of {@link Judge} that decides what a slow figure is blamed on. A node or a pair is slow on
 * a mode when every operation there is slow (a bad NIC or cable slows send/recv and all-reduce alike; one slow
 * operation alone is noise). A node slow on every NIC is the node, on some NICs node+NIC, only when striping the
 * node again; a slow pair that neither of its nodes explains (by a node suspect, or a node+NIC suspect on that NIC
 * or on the striped mode) is the pair, where the pairs' reference holds enough other pairs to judge it
 * ({@link TestView#pairsJudged}).
 * <b>Note:</b> not threadsafe; one per judgement.
 */
final class Attribution {

    private final Figures f;
    private final TestView[] views;
    private final int ops = Figures.PAIR_OPS.size();
    /** Per node: every mode it is blamed on (a node suspect: all of them). */
    private final boolean[][] explained;

    Attribution(final Figures f, final TestView[] views) {
        this.f = f;
        this.views = views;
        this.explained = new boolean[f.nodes().size()][f.modes().size()];
    }

    /** Adds node {@code i}'s node or node+NIC suspects. */
    void node(final int i, final List<Suspect> out) {
        final List<String> modes = f.modes();
        final int striped = modes.indexOf(Figures.STRIPED);
        final int fallback = modes.indexOf(Figures.DEFAULT_MODE);
        final List<Integer> slowNics = new ArrayList<>();
        int nics = 0;
        for (int m = 0; m < modes.size(); m++) {
            if (m != striped && m != fallback) {
                nics++;
                if (!slowTests(i, m).isEmpty()) {
                    slowNics.add(m);
                }
            }
        }
        final boolean stripedSlow = striped >= 0 && !slowTests(i, striped).isEmpty();
        final boolean fallbackSlow = fallback >= 0 && !slowTests(i, fallback).isEmpty();
        if (fallbackSlow || nics >= 2 && slowNics.size() == nics) {
            java.util.Arrays.fill(explained[i], true);
            out.add(suspect(Suspect.Kind.NODE, i, fallbackSlow ? "network" : Judge.ALL_NICS, allModes(i)));
            return;
        }
        for (final int m : slowNics) {
            explained[i][m] = true;
            if (striped >= 0) {
                explained[i][striped] = true;
            }
            out.add(suspect(Suspect.Kind.NODE_NIC, i, modes.get(m), slowTests(i, m)));
        }
        if (stripedSlow && slowNics.isEmpty()) {
            explained[i][striped] = true;
            out.add(suspect(Suspect.Kind.NODE, i, Figures.STRIPED, slowTests(i, striped)));
        }
    }

    /** Adds a pair suspect per pair and mode that is slow and that neither node explains. */
    void pairs(final List<Suspect> out) {
        final int n = f.nodes().size();
        final Map<Long, List<Evidence>> found = new LinkedHashMap<>();
        for (final TestView v : views) {
            if (!v.pairsJudged()) {
                continue;
            }
            final int mode = Figures.modeOf(v.test);
            final double[] pairs = f.pairs(v.test);
            int idx = 0;
            for (int a = 0; a < n; a++) {
                for (int b = a + 1; b < n; b++, idx++) {
                    if (v.pairSpread.slow(pairs[idx]) && !explained[a][mode] && !explained[b][mode]) {
                        found.computeIfAbsent(((long) idx) * f.modes().size() + mode, k -> new ArrayList<>())
                                .add(new Evidence(f.testName(v.test), pairs[idx], v.pairReference,
                                        v.pairSpread.limit(), 1, 1));
                    }
                }
            }
        }
        for (final Map.Entry<Long, List<Evidence>> e : found.entrySet()) {
            if (e.getValue().size() < ops) {
                continue;
            }
            final int mode = (int) (e.getKey() % f.modes().size());
            final int[] ab = pairOf(n, (int) (e.getKey() / f.modes().size()));
            final List<Evidence> ev = new ArrayList<>();
            for (final Evidence x : e.getValue()) {
                ev.add(new Evidence(x.test(), x.figure(), x.peers(), x.limit(), e.getValue().size(), ops));
            }
            out.add(new Suspect(Suspect.Kind.PAIR, ab[0], ab[1], -1, f.modes().get(mode), worstFirst(ev), false));
        }
    }

    /** Which nodes a node or node+NIC suspect names (recheck partners avoid them). */
    boolean[] namedNodes(final List<Suspect> suspects) {
        final boolean[] named = new boolean[f.nodes().size()];
        for (final Suspect s : suspects) {
            if (s.kind() == Suspect.Kind.NODE || s.kind() == Suspect.Kind.NODE_NIC) {
                named[s.node()] = true;
            }
        }
        return named;
    }

    /** Node {@code i}'s evidence on {@code mode} when every operation is slow there, else none. */
    private List<Evidence> slowTests(final int i, final int mode) {
        final List<Evidence> out = new ArrayList<>();
        for (int op = 0; op < ops; op++) {
            final TestView v = views[Figures.test(mode, op)];
            if (!v.slow[i]) {
                return List.of();
            }
            out.add(v.node(f, i));
        }
        return out;
    }

    private List<Evidence> allModes(final int i) {
        final List<Evidence> out = new ArrayList<>();
        for (int m = 0; m < f.modes().size(); m++) {
            out.addAll(slowTests(i, m));
        }
        return out;
    }

    private static Suspect suspect(final Suspect.Kind kind, final int i, final String where, final List<Evidence> ev) {
        return new Suspect(kind, i, -1, -1, where, worstFirst(ev), false);
    }

    private static List<Evidence> worstFirst(final List<Evidence> ev) {
        final List<Evidence> out = new ArrayList<>(ev);
        out.sort(Comparator.comparingDouble(Evidence::ratio));
        return out;
    }

    /** The nodes {a, b} of a pair index among n nodes. */
    static int[] pairOf(final int n, final int idx) {
        int a = 0;
        int first = 0;
        while (idx >= first + (n - a - 1)) {
            first += n - a - 1;
            a++;
        }
        return new int[] {a, a + 1 + idx - first};
    }
}
