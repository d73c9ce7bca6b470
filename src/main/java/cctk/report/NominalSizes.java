package cctk.report;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Sizes that differ by at most {@link #TOLERANCE} stand for one nominal size, the largest of them: runs at other
 * world sizes round a requested size down to whole elements per rank (10 MB is 9,999,996 B at W = 3), and a
 * comparison between them should still compare 10 MB with 10 MB. Sizes are grouped from the smallest up, a group
 * spanning at most the tolerance.
 * <b>Note:</b> threadsafe (immutable).
 */
final class NominalSizes {

    /** The largest relative difference between sizes of one group. */
    static final double TOLERANCE = 0.01;

    private final Map<Long, Long> nominal = new HashMap<>();

    NominalSizes(final Collection<Long> sizes) {
        final TreeSet<Long> sorted = new TreeSet<>(sizes);
        final java.util.List<Long> group = new java.util.ArrayList<>();
        for (final long s : sorted) {
            if (!group.isEmpty() && s > group.get(0) * (1 + TOLERANCE)) {
                close(group);
            }
            group.add(s);
        }
        close(group);
    }

    private void close(final java.util.List<Long> group) {
        if (!group.isEmpty()) {
            final long top = group.get(group.size() - 1);
            group.forEach(s -> nominal.put(s, top));
            group.clear();
        }
    }

    /** The nominal size of {@code bytes} (itself when it was not among the sizes). */
    long of(final long bytes) {
        return nominal.getOrDefault(bytes, bytes);
    }

    /** The nominal sizes, each once. */
    java.util.Set<Long> all() {
        return new java.util.HashSet<>(nominal.values());
    }

    /** True when other sizes stand for the same nominal size as {@code bytes}'s. */
    boolean rounded(final long bytes) {
        final long n = of(bytes);
        return nominal.entrySet().stream().anyMatch(e -> e.getValue() == n && e.getKey() != n) || n != bytes;
    }
}
