package cctk.spec;

import cctk.comm.CollectiveType;
import cctk.comm.DType;
import cctk.results.Reference;
import cctk.spec.SpecValue.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Checks the top-level {@code references:} list (usually from a cluster profile) and builds {@link Reference}s. */
final class ReferenceBuilder {

    private static final String SIZE = "a size with a byte unit such as 1GiB or 512MiB";

    private ReferenceBuilder() {
    }

    static List<Reference> build(final Section top) {
        final SpecValue v = top.get("references");
        if (v == null) {
            return List.of();
        }
        if (v.kind() != Kind.LIST) {
            top.problems().expected(v, "references", "a list of references such as {collective: all_reduce,"
                    + " min_size: 1GiB, max_size: 8GiB, busbw_gbps: 80}");
            return List.of();
        }
        final List<Reference> out = new ArrayList<>();
        for (int i = 0; i < v.list().size(); i++) {
            final SpecValue item = v.list().get(i);
            final String path = "references[" + i + "]";
            if (item.kind() != Kind.MAP) {
                top.problems().expected(item, path, "a mapping with collective, min_size, max_size, busbw_gbps");
                continue;
            }
            final Reference r = one(new Section(item, path, top.problems(), item.where()));
            if (r != null) {
                out.add(r);
            }
        }
        return List.copyOf(out);
    }

    private static Reference one(final Section s) {
        final int before = s.problems().size();
        final List<String> names = Arrays.stream(CollectiveType.values()).map(CollectiveType::specName).toList();
        final String collName = s.requiredString("collective");
        final CollectiveType coll = collName == null ? null : CollectiveType.bySpecName(collName);
        if (collName != null && coll == null) {
            s.problems().expected(s.get("collective"), s.keyPath("collective"), "one of " + String.join(", ", names),
                    Suggestions.didYouMean(collName, names));
        }
        final String backend = s.string("backend", null);
        if (backend != null && !BenchmarkBuilder.BACKENDS.contains(backend)) {
            s.problems().expected(s.get("backend"), s.keyPath("backend"), "tcp, tcp-flat or nccl",
                    Suggestions.didYouMean(backend, BenchmarkBuilder.BACKENDS));
        }
        final String typeName = s.string("dtype", null);
        final DType dtype = typeName == null ? null : DType.bySpecName(typeName);
        if (typeName != null && dtype == null) {
            s.problems().expected(s.get("dtype"), s.keyPath("dtype"), "an element type such as float32");
        }
        final long min = bytes(s, "min_size");
        final long max = bytes(s, "max_size");
        if (min > 0 && max > 0 && min > max) {
            s.problems().expected(s.get("max_size"), s.keyPath("max_size"), "a size >= min_size");
        }
        final double busbw = number(s, "busbw_gbps", Double.NaN, Double.MAX_VALUE, true);
        final double tolerance = number(s, "tolerance", Reference.DEFAULT_TOLERANCE, 1.0, false);
        s.finish();
        if (s.problems().size() != before) {
            return null;
        }
        return new Reference(coll.specName(), backend, dtype == null ? null : dtype.specName(), min, max, busbw,
                tolerance);
    }

    private static long bytes(final Section s, final String key) {
        final SpecValue v = s.get(key);
        if (v == null) {
            s.missing(key, SIZE);
            return -1;
        }
        if (v.kind() != Kind.STRING) {
            s.problems().expected(v, s.keyPath(key), SIZE + " (references compare bytes, never element counts)");
            return -1;
        }
        try {
            final MessageSize m = Sizes.parse(v.text());
            if (m.elements()) {
                s.problems().expected(v, s.keyPath(key), SIZE);
                return -1;
            }
            return m.value();
        } catch (final IllegalArgumentException e) {
            s.problems().expected(v, s.keyPath(key), SIZE);
            return -1;
        }
    }

    /** A positive number up to {@code max}; {@code fallback} when absent and not required. */
    private static double number(final Section s, final String key, final double fallback, final double max,
                                 final boolean required) {
        final SpecValue v = s.get(key);
        final String expected = "a number > 0" + (max < Double.MAX_VALUE ? " and <= " + max : "");
        if (v == null) {
            if (required) {
                s.missing(key, expected);
            }
            return fallback;
        }
        double d = Double.NaN;
        if (v.kind() == Kind.INT || v.kind() == Kind.FLOAT) {
            try {
                d = Double.parseDouble(v.text().replace("_", ""));
            } catch (final NumberFormatException e) {
                d = Double.NaN;
            }
        }
        if (!(d > 0 && d <= max) || Double.isInfinite(d)) {
            s.problems().expected(v, s.keyPath(key), expected);
            return fallback;
        }
        return d;
    }
}
