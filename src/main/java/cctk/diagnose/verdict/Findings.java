package cctk.diagnose.verdict;

import java.util.List;
import java.util.Map;

/**
 * What the first look at a diagnosis's figures found: the suspects before any repeat, the pairs each one wants
 * measured again, and the reference (peers' median) of every test.
 *
 * @param suspects       the suspects, in verdict order
 * @param rechecks       for each suspect (same index), the pairs and modes that would confirm it; empty for
 *                       suspects that the second pass of their phase confirms (nodes inside, ranks)
 * @param pairReference  per test, the median pair that touches no slow node, GB/s
 * @param nodeReference  per test, the median node figure, GB/s
 * @param notRepeated    suspects left without a repeat because there were more than a diagnosis repeats
 * @param nodeFigure     per test and node, the median of the node's pairs, GB/s
 * @param slowPairs      per test and node, how many of its pairs are below the threshold
 * @param measuredPairs  per test and node, how many of its pairs were measured
 * @param sensitivity    what the run can claim when it names no suspect: from the first look, then once the
 *                       repeats are in ({@link Judge#afterRepeat})
 * @param watched        the nodes below the threshold on some operation that no suspect names, measured again too
 */
public record Findings(List<Suspect> suspects, List<List<Recheck>> rechecks, double[] pairReference,
                       double[] nodeReference, int notRepeated, double[][] nodeFigure,
                       int[][] slowPairs, int[][] measuredPairs, Sensitivity sensitivity, List<Watched> watched) {

    public Findings {
        suspects = List.copyOf(suspects);
        rechecks = rechecks.stream().map(List::copyOf).toList();
        watched = List.copyOf(watched);
    }

    /** These findings with what the run can claim after its repeats. */
    Findings withSensitivity(final Sensitivity after) {
        return new Findings(suspects, rechecks, pairReference, nodeReference, notRepeated, nodeFigure, slowPairs,
                measuredPairs, after, watched);
    }

    /** Every pair and mode to measure again, once each, in order. */
    public List<Recheck> allRechecks() {
        final Map<Recheck, Boolean> seen = new java.util.LinkedHashMap<>();
        rechecks.forEach(l -> l.forEach(r -> seen.put(r, true)));
        watched.forEach(w -> w.rechecks().forEach(r -> seen.put(r, true)));
        return List.copyOf(seen.keySet());
    }
}
