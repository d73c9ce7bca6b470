package cctk.spec;

import cctk.spec.SpecValue.Kind;

/** Checks the {@code diagnose:} section and builds {@link Diagnose}, with its defaults. */
final class DiagnoseBuilder {

    private DiagnoseBuilder() {
    }

    /** The section, or null when the spec has no {@code diagnose:} key; {@code diagnose:} alone means defaults. */
    static Diagnose build(final Section top) {
        if (!top.entries().containsKey("diagnose")) {
            top.get("diagnose");
            return null;
        }
        final Section s = top.section("diagnose");
        final Diagnose d = Diagnose.DEFAULT;
        final MessageSize size = size(s, d.size());
        final int warmup = s.integer("warmup", 0, 1000, d.warmup());
        final int iters = s.integer("iters", 1, 10_000, d.iters());
        final double threshold = threshold(s, d.threshold());
        final boolean confirm = s.bool("confirm", d.confirm());
        final int limit = s.integer("limit", 1, 3600, d.limitSeconds());
        final int window = s.integer("window_ms", 0, 60_000, d.windowMillis());
        s.finish();
        return new Diagnose(size, warmup, iters, threshold, confirm, limit, window);
    }

    private static MessageSize size(final Section s, final MessageSize fallback) {
        final SpecValue v = s.get("size");
        if (v == null) {
            return fallback;
        }
        if (v.kind() != Kind.INT && v.kind() != Kind.STRING || v.kind() == Kind.STRING && v.text().matches("[0-9]+")) {
            s.problems().expected(v, s.keyPath("size"), Sizes.EXPECTED);
            return fallback;
        }
        try {
            final MessageSize m = Sizes.parse(v.text());
            if (m.bytes(cctk.comm.DType.FLOAT32) < 4 || m.bytes(cctk.comm.DType.FLOAT32) > (1L << 30)) {
                s.problems().expected(v, s.keyPath("size"), "a size from 4B to 1GiB");
                return fallback;
            }
            return m;
        } catch (final IllegalArgumentException e) {
            s.problems().expected(v, s.keyPath("size"), e.getMessage());
            return fallback;
        }
    }

    private static double threshold(final Section s, final double fallback) {
        final SpecValue v = s.get("threshold");
        if (v == null) {
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
        if (!(d > 0 && d < 1)) {
            s.problems().expected(v, s.keyPath("threshold"), "a fraction of the peers' median above 0 and below 1,"
                    + " such as 0.8");
            return fallback;
        }
        return d;
    }
}
