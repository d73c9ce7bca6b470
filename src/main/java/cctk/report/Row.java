package cctk.report;

import java.util.List;

/**
 * One collective × type × operator × size, with its out-of-place and in-place measurements: one line of
 * the profile text, one CSV/JSON record per measurement.
 *
 * @param collective     spec name, e.g. {@code all_reduce}
 * @param title          profile name, e.g. {@code AllReduce}
 * @param dtype          element type name, or null for a barrier
 * @param op             reduce operator name, or null
 * @param root           root rank of rooted collectives, -1 otherwise
 * @param requestedBytes the sweep's size before per-collective rounding (groups the profile text)
 * @param sizeBytes      S, as nccl-tests' size column
 * @param count          the call's count argument, as nccl-tests' count column
 * @param measurements   in the order measured
 */
public record Row(String collective, String title, String dtype, String op, int root, long requestedBytes,
                  long sizeBytes, long count, List<Measurement> measurements) {
}
