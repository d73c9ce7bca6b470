package cctk.report;

import cctk.comm.DType;
import cctk.results.Numbers;
import java.util.List;

/**
 * Sizes that were asked for as element counts: every run of a plot recorded its spec's sizes as
 * {@code "1000000 elements"} (the result JSON's {@code args.sizes}) and every line has one element type. A size
 * axis then names the count beside each size it labels: {@code 4 MB (1M)}.
 * <b>Note:</b> threadsafe (immutable).
 *
 * @param dtype the element type's spec name
 * @param bytes bytes per element
 */
record AskedElements(String dtype, int bytes) {

    /** What {@code lines} asked for, or null when some run asked for bytes, did not record it, or types differ. */
    static AskedElements of(final List<Series> lines) {
        final List<String> dtypes = lines.stream().map(Series::dtype).distinct().toList();
        if (lines.isEmpty() || dtypes.size() != 1 || dtypes.get(0) == null) {
            return null;
        }
        for (final Series s : lines) {
            if (!(s.run().args().get("sizes") instanceof List<?> sizes) || sizes.isEmpty() || !sizes.stream()
                .allMatch(o -> o instanceof String t && t.matches("[0-9]+ elements"))) {
                return null;
            }
        }
        final DType type = DType.bySpecName(dtypes.get(0));
        return type == null ? null : new AskedElements(type.specName(), type.bytes());
    }

    /** {@code scale}'s label at {@code x}, with the element count beside a whole step of whole elements. */
    String label(final Axes.SizeScale scale, final double x) {
        final String size = scale.label(x);
        final double whole = Math.rint(x);
        if (!Double.isFinite(x) || Math.abs(x - whole) > 1e-9 || Math.abs(whole) > Integer.MAX_VALUE) {
            return size;
        }
        final long at = scale.bytesAt((int) whole);
        return at > 0 && at % bytes == 0 ? size + " (" + count(at / bytes) + ")" : size;
    }

    /** An element count as a spec writes it, shortened where it is a whole number of thousands: 1M, 500k. */
    static String count(final long n) {
        if (n >= 1_000_000 && n % 1_000_000 == 0) {
            return n / 1_000_000 + "M";
        }
        if (n >= 1_000 && n % 1_000 == 0) {
            return n / 1_000 + "k";
        }
        return Numbers.grouped(n);
    }
}
