package cctk.diagnose.verdict;

import java.util.ArrayList;
import java.util.List;

/**
 * A node that no suspect names but that reads below {@code threshold} × its peers' median on some operation of a
 * mode, measured again with partners on that mode as a suspect is. A link at half speed on a loaded cluster reads
 * so: slow on sendrecv, inside the nodes' scatter on all_reduce, so never a suspect. One such reading is noise as
 * often as not on a busy machine; the same operation below the threshold again on repeat is not, and the run is then
 * inconclusive ({@link #afterRepeat}), never "healthy". So is a run with a first-look suspect that its repeat did
 * not confirm but that stayed below its peers' median on every operation (a link at 0.85x of a busy machine's
 * links read 0.61x at first look and 0.85x on repeat, and was called healthy).
 * <b>Note:</b> threadsafe (immutable).
 *
 * @param node     the node
 * @param mode     the mode
 * @param tests    the mode's tests on which the node was below the threshold at first look
 * @param rechecks the pairs measured again: the node with up to {@link Judge#RECHECK_PARTNERS} partners
 */
public record Watched(int node, int mode, List<Integer> tests, List<Recheck> rechecks) {

    public Watched {
        tests = List.copyOf(tests);
        rechecks = List.copyOf(rechecks);
    }

    /**
     * The nodes to watch, each mode of each node that no suspect names with an operation below the threshold ×
     * that test's peers' median ({@code nodeReference}, the median node figure), while {@code budget} rechecks last
     * (suspects take theirs first).
     */
    static List<Watched> of(final Figures f, final double[][] nodeFigure, final double[] nodeReference,
                            final boolean[] named, final double threshold, final int budget) {
        final List<Watched> out = new ArrayList<>();
        int left = budget;
        for (int m = 0; m < f.modes().size(); m++) {
            for (int i = 0; i < f.nodes().size(); i++) {
                if (named[i]) {
                    continue;
                }
                final List<Integer> tests = new ArrayList<>();
                for (int op = 0; op < Figures.PAIR_OPS.size(); op++) {
                    final int t = Figures.test(m, op);
                    if (nodeFigure[t][i] < threshold * nodeReference[t]) {
                        tests.add(t);
                    }
                }
                if (tests.isEmpty()) {
                    continue;
                }
                final List<Recheck> rechecks = new ArrayList<>();
                for (final int j : Judge.partners(i, named, Judge.RECHECK_PARTNERS)) {
                    rechecks.add(Recheck.of(i, j, m));
                }
                if (rechecks.size() > left) {
                    return out;
                }
                left -= rechecks.size();
                out.add(new Watched(i, m, tests, rechecks));
            }
        }
        return out;
    }

    /**
     * What the run can claim once the repeats are in: the first look's sensitivity, unless a watched node was below
     * the threshold again on an operation it was below on at first look (the median of its repeated pairs against
     * the same peers' median); then inconclusive, naming the node, the mode and both readings.
     */
    static Sensitivity afterRepeat(final Findings found, final Figures f, final double threshold,
                                   final List<Suspect> verdict) {
        final Sensitivity first = found.sensitivity();
        if (!first.conclusive()) {
            return first;
        }
        final String stayed = stayedBelow(verdict, f);
        if (stayed != null) {
            return new Sensitivity(first.ratio(), stayed + "; this run cannot tell whether it is slow (a link near"
                    + " half speed on a loaded cluster reads so): rerun on a quieter cluster, with more iterations or a"
                    + " larger window_ms");
        }
        for (final Watched w : found.watched()) {
            for (final int t : w.tests()) {
                final double median = found.nodeReference()[t];
                final double[] values = new double[w.rechecks().size()];
                for (int k = 0; k < values.length; k++) {
                    values[k] = f.repeat(t, w.rechecks().get(k).a(), w.rechecks().get(k).b());
                }
                final double again = Medians.of(values);
                if (again < threshold * median) {
                    return new Sensitivity(first.ratio(), f.nodes().get(w.node()) + " on " + f.modes().get(w.mode())
                            + " read " + ratio(found.nodeFigure()[t][w.node()], median) + " on "
                            + Figures.PAIR_OPS.get(t % Figures.PAIR_OPS.size()) + " and " + ratio(again, median)
                            + " again on repeat: below the threshold (" + threshold + " x the peers' median) twice,"
                            + " but not slow on every operation of that mode, so not named; this run cannot tell"
                            + " whether that link is slow (a link at half speed on a loaded cluster reads so): rerun"
                            + " on a quieter cluster, with more iterations or a larger window_ms");
                }
            }
        }
        return first;
    }

    /**
     * The first node, node+NIC or pair suspect that its repeat did not confirm yet that stayed below its peers'
     * median on every operation it was slow on ({@code node2 eth0 was slow at first look (0.61x, 0.67x) and below
     * its peers again on repeat (0.85x, 0.82x)}), or null. A suspect that noise made is back at its peers or above
     * on repeat, on some operation at least; one that stays below on all of them is not cleared. A suspect left to a
     * starved rank's CPU is the rank's, not this rule's.
     */
    private static String stayedBelow(final List<Suspect> verdict, final Figures f) {
        for (final Suspect s : verdict) {
            if (s.confirmed() || s.kind() == Suspect.Kind.RANK || Judge.INTRA.equals(s.where())
                    || s.evidence().isEmpty() || Starved.starvedLeader(s, verdict, f) >= 0) {
                continue;
            }
            final StringBuilder first = new StringBuilder();
            final StringBuilder again = new StringBuilder();
            boolean below = true;
            for (final Evidence e : s.evidence()) {
                below &= e.repeatRatio() < 1;
                first.append(first.length() == 0 ? "" : ", ").append(ratio(e.figure(), e.peers()));
                again.append(again.length() == 0 ? "" : ", ").append(ratio(e.repeat(), e.repeatPeers()));
            }
            if (below) {
                return s.kind().label() + " " + s.subject(f.nodes()) + " was slow at first look (" + first
                        + ") and below its peers' median again on repeat (" + again + "), though not below the"
                        + " threshold, so not confirmed";
            }
        }
        return null;
    }

    private static String ratio(final double v, final double median) {
        return String.format(java.util.Locale.ROOT, "%.2fx", v / median);
    }
}
