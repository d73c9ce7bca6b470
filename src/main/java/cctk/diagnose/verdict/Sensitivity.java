package cctk.diagnose.verdict;

import java.util.List;

/**
 * What a diagnosis that names no suspect can still claim. On each NIC or mode a node is named when it is below
 * {@link Spread#limit} of its peers on every operation, so this run would have found a node at or below
 * {@code ratio} × its peers' median on its noisiest mode (the lowest limit over the modes, each mode's lowest over its
 * operations): on quiet hardware that is the threshold itself, on scattered peers less. The run cannot tell when it
 * has fewer than three nodes (with two, a slow pair is as much one node's fault as the other's) or when the peers
 * scatter so much that only a node below half the threshold would be named, or when a node is below threshold ×
 * its peers' median on every operation of a mode and yet named by no suspect (inside the peers' scatter: too close
 * to call, never "healthy"); it is then <em>inconclusive</em>, {@code why} says which.
 *
 * @param ratio the figure, as a fraction of the peers' median, at or below which a slow node is found (NaN: none)
 * @param why   why the run cannot tell, or null when it can
 */
public record Sensitivity(double ratio, String why) {

    /** What {@code found} on {@code f} can claim at {@code threshold}. */
    public static Sensitivity of(final Figures f, final Findings found, final double threshold) {
        final int n = f.nodes().size();
        double worst = Double.POSITIVE_INFINITY;
        for (int m = 0; m < f.modes().size(); m++) {
            double mode = Double.POSITIVE_INFINITY;
            for (int t = 0; t < f.tests(); t++) {
                if (Figures.modeOf(t) == m) {
                    final Spread s = Spread.of(found.nodeFigure()[t], threshold);
                    mode = Math.min(mode, s.median() > 0 ? s.limit() / s.median() : Double.NaN);
                }
            }
            worst = Double.isNaN(mode) ? worst : Math.min(worst, mode);
        }
        final double ratio = Double.isFinite(worst) ? worst : Double.NaN;
        if (n < 3) {
            return new Sensitivity(ratio, n + " node" + (n == 1 ? "" : "s") + ": too few to tell a slow node from its"
                    + " peers (a slow pair is as much one node's as the other's); give three or more");
        }
        if (!(ratio >= threshold / 2)) {
            return new Sensitivity(ratio, "too noisy: the nodes' figures scatter so much that only a node below "
                    + (Double.isNaN(ratio) ? "?" : String.format(java.util.Locale.ROOT, "%.2f", ratio))
                    + "x its peers' median would be named (the threshold is " + threshold + "); rerun on a quieter"
                    + " cluster or with more iterations");
        }
        final String unnamed = unnamed(f, found, threshold);
        if (unnamed != null) {
            return new Sensitivity(ratio, unnamed + ", below the threshold " + threshold + ", yet"
                    + " inside its peers' scatter, so no suspect names it; rerun on a quieter cluster or with more"
                    + " iterations");
        }
        return new Sensitivity(ratio, null);
    }

    /**
     * The first node and mode that no suspect explains whose figure is below threshold × its reference, as the mean
     * over the mode's operations, with two thirds or more of its measurements there below it too (one low
     * measurement among few drags a median of two; a slow link is low on most). Up to
     * {@link Culprits#LEAVE_ONE_OUT} nodes the reference is the median pair that touches neither the node nor a named
     * node (a node's own slow pairs are half of four nodes' pairs, and would drag the peers' median down to it);
     * above, the peers' median.
     */
    private static String unnamed(final Figures f, final Findings found, final double threshold) {
        final int n = f.nodes().size();
        final boolean[] named = new boolean[n];
        for (final Suspect s : found.suspects()) {
            named[s.node()] |= s.kind() == Suspect.Kind.NODE || s.kind() == Suspect.Kind.NODE_NIC;
        }
        for (int i = 0; i < n; i++) {
            for (int m = 0; m < f.modes().size(); m++) {
                double sum = 0;
                int below = 0;
                int all = 0;
                for (int op = 0; op < Figures.PAIR_OPS.size(); op++) {
                    final int t = Figures.test(m, op);
                    final double ref = n > Culprits.LEAVE_ONE_OUT ? found.nodeReference()[t]
                            : Culprits.reference(f, t, named, i);
                    sum += found.nodeFigure()[t][i] / ref;
                    for (int j = 0; j < n; j++) {
                        final double v = j == i || named[j] ? Double.NaN : f.pair(t, i, j);
                        all += Double.isFinite(v) ? 1 : 0;
                        below += v < threshold * ref ? 1 : 0;
                    }
                }
                final double mean = sum / Figures.PAIR_OPS.size();
                if (mean < threshold && 3 * below >= 2 * all && !explained(found.suspects(), f, i, m)) {
                    return f.nodes().get(i) + " " + f.modes().get(m) + " is at " + String.format(java.util.Locale.ROOT,
                            "%.2f", mean) + "x the median of the pairs that do not touch it";
                }
            }
        }
        return null;
    }

    /** Whether a suspect names node {@code i} on mode {@code m} (the node, that NIC, any NIC when striped, a pair). */
    private static boolean explained(final List<Suspect> suspects, final Figures f, final int i, final int m) {
        final String mode = f.modes().get(m);
        for (final Suspect s : suspects) {
            final boolean mine = s.node() == i || s.kind() == Suspect.Kind.PAIR && s.peer() == i;
            final boolean there = switch (s.kind()) {
                case NODE -> !Judge.INTRA.equals(s.where());
                case NODE_NIC -> s.where().equals(mode) || Figures.STRIPED.equals(mode);
                case PAIR -> s.where().equals(mode);
                case RANK -> false;
            };
            if (mine && there) {
                return true;
            }
        }
        return false;
    }

    /** The outcome: {@code SUSPECT} when a suspect is confirmed, else {@code INCONCLUSIVE} or {@code OK}. */
    public String status(final List<Suspect> verdict) {
        return verdict.stream().anyMatch(Suspect::confirmed) ? "SUSPECT" : why != null ? "INCONCLUSIVE" : "OK";
    }

    /** Whether the run can tell. */
    public boolean conclusive() {
        return why == null;
    }
}
