package cctk.diagnose.verdict;

/**
 * What a diagnosis that names no suspect can still claim. On each NIC or mode a node is named when it is below
 * {@link Spread#limit} of its peers on every operation, so this run would have found a node at or below
 * {@code ratio} × its peers' median on its noisiest mode (the lowest limit over the modes, each mode's lowest over its
 * operations): on quiet hardware that is the threshold itself, on scattered peers less. The run cannot tell when it
 * has fewer than three nodes (with two, a slow pair is as much one node's fault as the other's) or when the peers
 * scatter so much that only a node below half the threshold would be named, or when a node is below the threshold on
 * every operation of a mode, or on one with every one of its pairs slow, but inside the scatter (not named, yet not
 * shown healthy: a link at half speed on a loaded cluster reads so); it is then <em>inconclusive</em>, {@code why}
 * says which.
 *
 * @param ratio the figure, as a fraction of the peers' median, at or below which a slow node is found (NaN: none)
 * @param why   why the run cannot tell, or null when it can
 */
public record Sensitivity(double ratio, String why) {

    /** What {@code found} on {@code f} can claim at {@code threshold} (the judge's: {@link Findings#sensitivity}). */
    public static Sensitivity of(final Figures f, final Findings found, final double threshold) {
        return of(f, found.nodeFigure(), found.slowPairs(), found.measuredPairs(), threshold);
    }

    /** From the first look's node figures (per test and node), as {@link Judge#tentative} computes it once. */
    static Sensitivity of(final Figures f, final double[][] nodeFigure, final int[][] slowPairs,
                          final int[][] measured, final double threshold) {
        final int n = f.nodes().size();
        double worst = Double.POSITIVE_INFINITY;
        for (int m = 0; m < f.modes().size(); m++) {
            double mode = Double.POSITIVE_INFINITY;
            for (int t = 0; t < f.tests(); t++) {
                if (Figures.modeOf(t) == m) {
                    final Spread s = Spread.of(nodeFigure[t], threshold);
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
        final String borderline = borderline(f, nodeFigure, slowPairs, measured, threshold);
        if (borderline != null) {
            return new Sensitivity(ratio, borderline + ": below the threshold (" + threshold + " x the peers' median)"
                    + " on every operation of that mode, or on one with every pair of it slow, but within the nodes'"
                    + " scatter, where only a node below "
                    + String.format(java.util.Locale.ROOT, "%.2f", ratio) + "x is named; this run cannot tell whether"
                    + " it is slow (a link at half speed reads so): rerun on a quieter cluster, with more"
                    + " iterations or a larger window_ms");
        }
        return new Sensitivity(ratio, null);
    }

    /**
     * The first node and mode that no suspect names (not slow by {@link Spread} on every operation) yet below
     * {@code threshold} × the peers' median on every operation of the mode, or on one operation with every one of its
     * pairs (two or more) slow, as {@code node2 on eth0 at 0.68x, 0.74x}; null when none.
     */
    private static String borderline(final Figures f, final double[][] nodeFigure, final int[][] slowPairs,
                                      final int[][] measured, final double threshold) {
        final int n = f.nodes().size();
        final int ops = Figures.PAIR_OPS.size();
        final Spread[] spreads = new Spread[f.tests()];
        for (int t = 0; t < spreads.length; t++) {
            spreads[t] = Spread.of(nodeFigure[t], threshold);
        }
        for (int m = 0; m < f.modes().size(); m++) {
            for (int i = 0; i < n; i++) {
                boolean below = true;
                boolean slow = true;
                boolean everyPair = false;
                final StringBuilder ratios = new StringBuilder();
                for (int op = 0; op < ops; op++) {
                    final int t = Figures.test(m, op);
                    final double v = nodeFigure[t][i];
                    final double median = spreads[t].median();
                    below &= v < threshold * median;
                    slow &= spreads[t].slow(v);
                    everyPair |= v < threshold * median && measured[t][i] >= 2 && slowPairs[t][i] == measured[t][i];
                    ratios.append(op == 0 ? "" : ", ")
                            .append(String.format(java.util.Locale.ROOT, "%.2fx", v / median));
                }
                if ((below || everyPair) && !slow) {
                    return f.nodes().get(i) + " on " + f.modes().get(m) + " at " + ratios;
                }
            }
        }
        return null;
    }

    /** The outcome: {@code SUSPECT} when a suspect is confirmed, else {@code INCONCLUSIVE} or {@code OK}. */
    public String status(final java.util.List<Suspect> verdict) {
        return verdict.stream().anyMatch(Suspect::confirmed) ? "SUSPECT" : why != null ? "INCONCLUSIVE" : "OK";
    }

    /** Whether the run can tell. */
    public boolean conclusive() {
        return why == null;
    }
}
