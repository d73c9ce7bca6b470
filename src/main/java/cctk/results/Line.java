package cctk.results;

import java.util.List;

/**
 * One line of the profile text: one point of a sweep (a collective, type, operator and size) with its measurements,
 * out-of-place first, then in-place; each measurement is one CSV and JSON row.
 *
 * @param title          the collective's name in the profile, e.g. {@code AllReduce}
 * @param requestedBytes the sweep's size before per-collective rounding (groups the profile text)
 * @param elementBytes   bytes per element of the type (1 for a barrier)
 * @param results        the measurements of this point
 */
public record Line(String title, long requestedBytes, int elementBytes, List<Result> results) {

    public Line {
        results = List.copyOf(results);
        if (results.isEmpty()) {
            throw new IllegalArgumentException("a line holds at least one measurement");
        }
    }

    /** The element type of the point, or null for a barrier. */
    public String dtype() {
        return results.get(0).dtype();
    }

    /** The operator, or null. */
    public String op() {
        return results.get(0).op();
    }
}
