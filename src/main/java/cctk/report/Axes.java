package cctk.report;

import cctk.results.Numbers;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The scales of the report's line plots, decided from the data so that every axis is labelled at readable values.
 * Sizes are drawn at log<sub>b</sub>(bytes) on a linear axis, b = 10 when the sizes are decimal (1 MB, 10 MB, 100 MB)
 * and b = 2 otherwise, over whole numbers only, at least two steps wide: the chart's ticks then fall on 1 KB, 10 KB,
 * ... or on powers of two, and each tick's label is the size it stands for. A value axis is logarithmic only when
 * its values span a factor 10 or more, and then runs from a power of ten to a power of ten at least two decades
 * apart, so that it shows at least three labelled decades; otherwise it is linear.
 * <b>Note:</b> threadsafe (immutable).
 */
final class Axes {

    /** The widest axis, in steps of the ladder: 2^0 .. 2^62 bytes. */
    private static final int MAX_STEP = 62;
    /** The largest whole decimal step a long holds: 10^18 bytes. */
    private static final int MAX_DECIMAL_STEP = 18;

    private Axes() {
    }

    /**
     * A size axis.
     *
     * @param decimal true for decimal units (ticks at powers of ten), false for binary (powers of two)
     * @param lo      the first tick, in steps (log<sub>b</sub> of its size)
     * @param hi      the last tick, in steps
     */
    record SizeScale(boolean decimal, int lo, int hi) {

        /** The base of the ladder. */
        double base() {
            return decimal ? 10 : 2;
        }

        /** Where {@code bytes} is drawn. */
        double x(final long bytes) {
            return Math.log(Math.max(1, bytes)) / Math.log(base());
        }

        /** Every step from {@code lo} to {@code hi}: the chart ticks among these. */
        List<Double> steps() {
            final List<Double> out = new ArrayList<>();
            for (int i = lo; i <= hi; i++) {
                out.add((double) i);
            }
            return out;
        }

        /**
         * The label of a tick at {@code x}, never empty (an empty label stops the chart library): the exact size on
         * a whole step ({@code 10 MB}, {@code 64 KiB}), else the size it stands for to 3 significant digits in the
         * axis's units ({@code 3.16 MB}).
         */
        String label(final double x) {
            if (!Double.isFinite(x) || Math.abs(x) > MAX_STEP) {
                return "?";
            }
            final double whole = Math.rint(x);
            if (Math.abs(x - whole) <= 1e-9 && whole >= 0 && whole <= (decimal ? MAX_DECIMAL_STEP : MAX_STEP)) {
                return Numbers.size(Math.round(Math.pow(base(), whole)));
            }
            return Numbers.approximateSize(Math.pow(base(), x), decimal);
        }

        /** What the units are, for the axis title. */
        String units() {
            return decimal ? "decimal units: 1 MB = 10^6 B" : "binary units: 1 MiB = 2^20 B";
        }
    }

    /**
     * A value axis.
     *
     * @param log true for a logarithmic axis
     * @param min its lower end: a power of ten when logarithmic, else 0 (NaN: the values' own, which holds three
     *            decades, or no values)
     * @param max its upper end: a power of ten when logarithmic, else a round number above the largest value (NaN:
     *            as min)
     */
    record ValueScale(boolean log, double min, double max) {
    }

    /** The size axis for {@code sizes} (bytes, all above 0; at least one). */
    static SizeScale sizes(final Collection<Long> sizes) {
        final boolean decimal = decimal(sizes);
        final double base = decimal ? 10 : 2;
        double smallest = Double.MAX_VALUE;
        double largest = 0;
        for (final long s : sizes) {
            final double x = Math.log(Math.max(1, s)) / Math.log(base);
            smallest = Math.min(smallest, x);
            largest = Math.max(largest, x);
        }
        // a size within 1 % of a step counts as on it (10 MB rounded to whole elements per rank at W = 3)
        final double near = Math.log1p(NominalSizes.TOLERANCE) / Math.log(base);
        int lo = (int) Math.floor(smallest + near);
        int hi = (int) Math.ceil(largest - near);
        for (boolean up = true; hi - lo < 2; up = !up) {
            if (up || lo == 0) {
                hi++;
            } else {
                lo--;
            }
        }
        return new SizeScale(decimal, lo, hi);
    }

    /**
     * True when the sizes are decimal: more of them are whole multiples of their decimal unit (10 MB), or within 1 %
     * of one digit times a power of ten (9,999,984 B: 10 MB rounded to whole elements per rank), than are whole
     * multiples of their binary unit (16 MiB) or within 1 % of a power of two; a tie, or sizes below 1000 B only, is
     * binary.
     */
    static boolean decimal(final Collection<Long> sizes) {
        int decimal = 0;
        int binary = 0;
        for (final long s : sizes) {
            if (s < 1000) {
                continue;
            }
            final boolean b = Numbers.exactBytes(s).endsWith("iB");
            final boolean d = !b && Numbers.exactDecimal(s) != null;
            final boolean nearD = !b && !d && near(s, Math.pow(10, Math.floor(Math.log10(s))), 10);
            final boolean nearB = !b && !d && near(s, Math.pow(2, Math.floor(Math.log(s) / Math.log(2))), 2);
            decimal += d || nearD && !nearB ? 1 : 0;
            binary += b || nearB && !nearD ? 1 : 0;
        }
        return decimal > binary;
    }

    /** True when {@code s} is within 1 % of a whole multiple (below {@code base}) of {@code unit}, or of the next. */
    private static boolean near(final long s, final double unit, final int base) {
        final double m = Math.rint(s / unit);
        return m >= 1 && m <= base && Math.abs(s - m * unit) <= NominalSizes.TOLERANCE * s
            && (base == 10 || m == 1 || m == 2);
    }

    /** The round number (1, 2, 2.5 or 5 times a power of ten) at or above 1.05 {@code v}. */
    static double niceAbove(final double v) {
        final double target = v * 1.05;
        final double decade = Math.pow(10, Math.floor(Math.log10(target)));
        for (final double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * decade >= target) {
                return m * decade;
            }
        }
        return 10 * decade;
    }

    /** The value axis for the finite, positive {@code values} (others are ignored). */
    static ValueScale values(final Collection<Double> values) {
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (final double v : values) {
            if (Double.isFinite(v) && v > 0) {
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        if (hi == 0) {
            return new ValueScale(false, Double.NaN, Double.NaN);
        }
        if (hi / lo < 10) {
            return new ValueScale(false, 0, niceAbove(hi));
        }
        if (Math.floor(Math.log10(hi)) - Math.ceil(Math.log10(lo)) >= 2) {
            // three decades or more inside the values: the chart labels them on the values' own range
            return new ValueScale(true, Double.NaN, Double.NaN);
        }
        final double bottom = Math.floor(Math.log10(lo));
        final double top = Math.max(Math.ceil(Math.log10(hi)), bottom + 2);
        return new ValueScale(true, Math.pow(10, bottom), Math.pow(10, top));
    }
}
