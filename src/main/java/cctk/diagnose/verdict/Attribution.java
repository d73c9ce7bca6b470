package cctk.diagnose.verdict;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Attribution, the part of {@link Judge} that decides what a slow figure is blamed on. A node or a pair is slow on
 * a mode when every operation there is slow (a bad NIC or cable slows send/recv and all-reduce alike; one slow
 * operation alone is noise), or, for a node, when nearly all its measurements there are below threshold × the
 * reference ({@link #signs}). A node is the node when it is slow on some NIC and below threshold × the reference on
 * every NIC (a NIC fault leaves the other NICs at their peers' speed; a slow host or a starved process slows them
 * all), or when nearly all its measurements on every mode are below it; else it is node+NIC on each slow NIC, and
 * slow only when striping the node again. A slow pair that neither of its nodes explains (by a node suspect, or a
 * node+NIC suspect on that NIC or on the striped mode) is the pair.
 * <b>Note:</b> not threadsafe; one per judgement.
 */
final class Attribution {

    private final Figures f;
    private final TestView[] views;
    private final double threshold;
    private final int ops = Figures.PAIR_OPS.size();
    /** Per node: every mode it is blamed on (a node suspect: all of them). */
    private final boolean[][] explained;

    /** Least share, in tenths, of a node's measurements below threshold × the reference that {@link #signs} needs. */
    static final int SIGN_TENTHS = 9;
    /** Fewest measurements {@link #signs} judges: two partners, both operations. */
    static final int SIGN_MIN = 4;

    Attribution(final Figures f, final TestView[] views, final double threshold) {
        this.f = f;
        this.views = views;
        this.threshold = threshold;
        this.explained = new boolean[f.nodes().size()][f.modes().size()];
    }

    /** Adds node {@code i}'s node or node+NIC suspects. */
    void node(final int i, final List<Suspect> out) {
        final List<String> modes = f.modes();
        final int striped = modes.indexOf(Figures.STRIPED);
        final int fallback = modes.indexOf(Figures.DEFAULT_MODE);
        final List<Integer> slowNics = new ArrayList<>();
        int nics = 0;
        int under = 0;
        for (int m = 0; m < modes.size(); m++) {
            if (m != striped && m != fallback) {
                nics++;
                if (slow(i, m)) {
                    slowNics.add(m);
                }
                if (under(i, m)) {
                    under++;
                }
            }
        }
        final boolean stripedSlow = striped >= 0 && slow(i, striped);
        final boolean fallbackSlow = fallback >= 0 && slow(i, fallback);
        final boolean everyNic = nics >= 2 && (!slowNics.isEmpty() && under == nics || signs(i, -1));
        if (fallbackSlow || everyNic) {
            java.util.Arrays.fill(explained[i], true);
            out.add(suspect(Suspect.Kind.NODE, i, fallbackSlow ? "network" : Judge.ALL_NICS, allTests(i)));
            return;
        }
        for (final int m : slowNics) {
            explained[i][m] = true;
            if (striped >= 0) {
                explained[i][striped] = true;
            }
            out.add(suspect(Suspect.Kind.NODE_NIC, i, modes.get(m), tests(i, m)));
        }
        if (stripedSlow && slowNics.isEmpty()) {
            explained[i][striped] = true;
            out.add(suspect(Suspect.Kind.NODE, i, Figures.STRIPED, tests(i, striped)));
        }
    }

    /**
     * Whether node {@code i} is slow on {@code mode}: below the limit of its peers' scatter on every operation, or
     * below threshold × the reference on nearly every one of its measurements there ({@link #signs}).
     */
    boolean slow(final int i, final int mode) {
        boolean all = true;
        for (int op = 0; op < ops; op++) {
            all &= views[Figures.test(mode, op)].slow[i];
        }
        return all || signs(i, mode);
    }

    /**
     * The sign test: of node {@code i}'s measurements on {@code mode} (every mode: -1) with partners that are not
     * suspect, at least {@link #SIGN_TENTHS} in ten are below threshold × the reference, and there are
     * {@link #SIGN_MIN} or more. A healthy node's measurement is below threshold × the median less than half the
     * time, so all of {@code k} are with a chance below 2^-k, nine in ten with one that falls as fast with k (a
     * binomial sign test): scattered peers widen the limit of {@link Spread}, not this.
     */
    boolean signs(final int i, final int mode) {
        int below = 0;
        int all = 0;
        for (final TestView v : views) {
            if (mode < 0 || Figures.modeOf(v.test) == mode) {
                below += v.below[i];
                all += v.partners[i];
            }
        }
        return all >= SIGN_MIN && 10 * below >= SIGN_TENTHS * all && under(i, mode);
    }

    /** Whether node {@code i} passes the sign test on some mode or on all of them together. */
    boolean signed(final int i) {
        for (int m = -1; m < f.modes().size(); m++) {
            if (signs(i, m)) {
                return true;
            }
        }
        return false;
    }

    /** Whether node {@code i}'s figure is below threshold × the reference on every test of {@code mode} (-1: all). */
    boolean under(final int i, final int mode) {
        for (final TestView v : views) {
            if ((mode < 0 || Figures.modeOf(v.test) == mode) && !(v.ratio(i) < threshold)) {
                return false;
            }
        }
        return true;
    }

    /** Node {@code i}'s lowest ratio to the reference, over the modes (the mean of its operations' ratios). */
    double worst(final int i) {
        double worst = Double.POSITIVE_INFINITY;
        for (int m = 0; m < f.modes().size(); m++) {
            double sum = 0;
            for (int op = 0; op < ops; op++) {
                sum += views[Figures.test(m, op)].ratio(i);
            }
            worst = Math.min(worst, sum / ops);
        }
        return worst;
    }

    /** Adds a pair suspect per pair and mode that is slow and that neither node explains. */
    void pairs(final List<Suspect> out) {
        final int n = f.nodes().size();
        final Map<Long, List<Evidence>> found = new LinkedHashMap<>();
        for (final TestView v : views) {
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

    /** Node {@code i}'s evidence on every operation of {@code mode}. */
    private List<Evidence> tests(final int i, final int mode) {
        final List<Evidence> out = new ArrayList<>();
        for (int op = 0; op < ops; op++) {
            out.add(views[Figures.test(mode, op)].node(f, i));
        }
        return out;
    }

    private List<Evidence> allTests(final int i) {
        final List<Evidence> out = new ArrayList<>();
        for (int m = 0; m < f.modes().size(); m++) {
            out.addAll(tests(i, m));
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
