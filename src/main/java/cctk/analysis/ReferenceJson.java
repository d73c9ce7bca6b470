package cctk.analysis;

import cctk.Printable;
import cctk.coll.CollectiveType;
import cctk.comm.DType;
import cctk.spec.Reference;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** References as the result JSON's {@code args.references} records them, so a report can judge a run later. */
public final class ReferenceJson {

    private ReferenceJson() {
    }

    /** The JSON form of a spec's references. */
    public static List<Object> encode(final List<Reference> refs) {
        final List<Object> out = new ArrayList<>();
        for (final Reference r : refs) {
            final Map<String, Object> m = new LinkedHashMap<>();
            m.put("collective", r.collective().specName());
            m.put("backend", r.backend());
            m.put("dtype", r.dtype() == null ? null : r.dtype().specName());
            m.put("min_bytes", r.minBytes());
            m.put("max_bytes", r.maxBytes());
            m.put("busbw_gbps", r.busBwGbps());
            m.put("tolerance", r.tolerance());
            out.add(m);
        }
        return out;
    }

    /** References read back; entries that do not make a reference are left out. */
    static List<Reference> decode(final Object value) {
        final List<Reference> out = new ArrayList<>();
        if (!(value instanceof List<?> list)) {
            return out;
        }
        for (final Object o : list) {
            if (o instanceof Map<?, ?> m && m.get("collective") instanceof String c
                && CollectiveType.bySpecName(c) != null && m.get("min_bytes") instanceof Double min
                && m.get("max_bytes") instanceof Double max && m.get("busbw_gbps") instanceof Double bw
                && sane(min, max, bw, m.get("tolerance"))) {
                final Object t = m.get("tolerance");
                final Object d = m.get("dtype");
                final String backend = m.get("backend") instanceof String b ? Printable.of(b) : null;
                out.add(new Reference(CollectiveType.bySpecName(c), backend,
                    d instanceof String ds ? DType.bySpecName(ds) : null, min.longValue(), max.longValue(), bw,
                    t instanceof Double td ? td : Reference.DEFAULT_TOLERANCE));
            }
        }
        return out;
    }

    /** A recorded reference a spec could hold: sizes in order within 0 .. 2^53, a positive busbw and tolerance. */
    private static boolean sane(final double min, final double max, final double bw, final Object tolerance) {
        final boolean sizes = min >= 0 && min <= max && max <= Checks.MAX_SIZE;
        final boolean t = !(tolerance instanceof Double d) || d > 0 && d <= 1000;
        return sizes && bw > 0 && Double.isFinite(bw) && t;
    }
}
