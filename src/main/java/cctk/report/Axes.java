package cctk.report;

import cctk.results.Numbers;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The scales of the report's line plots, decided from the data so that every axis is labelled at readable values.
 * Sizes are drawn at log<sub>b</sub>(bytes) on a linear axis, b = 10 when the sizes are decimal (1 MB, 10 MB, 100 MB)
 * and b = 2 otherwise, over whole numbers only, at least two steps wide: the chart's ticks then fall on 1 KB, 10 KB,
 * ... or on powers of two (or on a sweep's own ladder: 4 MB, 16 MB, 64 MB), and each tick's label is the size it
 * stands for. A time axis is logarithmic only when its values span a factor 10 or more, and then runs from a power
 * of ten to a power of ten at least two decades apart, so that it shows at least three labelled decades and its top
 * tick is labelled; otherwise it is linear. A bandwidth axis is always linear.
 * <b>Note:</b> threadsafe (immutable).
 */
final class Axes {

    /** The widest axis, in steps of the ladder: 2^0 .. 2^62 bytes. */
    private static final int MAX_STEP = 62;

    private Axes() {
    }

    /**
     * A size axis: ticks at {@code origin} times whole powers of {@code factor}.
     *
     * @param decimal true for decimal units (the sizes print as 1 MB, 400 MB), false for binary (1 MiB)
     * @param lo      the first tick, in steps (log<sub>factor</sub> of its size over {@code origin})
     * @param hi      the last tick, in steps
     * @param origin  the size at step 0: 1, or the smallest measured size of a ladder such as 4 MB, 16 MB, 64 MB
     * @param factor  the ratio between neighbouring ticks: 10 (decimal), 2 (binary), or a ladder's factor
     */
    record SizeScale(boolean decimal, int lo, int hi, long origin, int factor) {

        /** An axis at the powers of ten (decimal) or of two (binary). */
        SizeScale(final boolean decimal, final int lo, final int hi) {
            this(decimal, lo, hi, 1, decimal ? 10 : 2);
        }

        /** The base of the ladder. */
        double base() {
            return factor;
        }

        /** Where {@code bytes} is drawn. */
        double x(final long bytes) {
            return Math.log(Math.max(1, bytes) / (double) origin) / Math.log(base());
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
         * a whole step that is a whole number of bytes ({@code 10 MB}, {@code 64 KiB}), else the size it stands for
         * to 3 significant digits in the axis's units ({@code 3.16 MB}).
         */
        String label(final double x) {
            if (!Double.isFinite(x) || Math.abs(x) > MAX_STEP) {
                return "?";
            }
            final double whole = Math.rint(x);
            if (Math.abs(x - whole) <= 1e-9) {
                final long bytes = bytesAt((int) whole);
                if (bytes > 0) {
                    return Numbers.size(bytes);
                }
            }
            return Numbers.approximateSize(origin * Math.pow(base(), x), decimal);
        }

        /** The size at whole step {@code step} when it is a whole number of bytes that a long holds, else 0. */
        long bytesAt(final int step) {
            long v = origin;
            try {
                for (int i = 0; i < Math.abs(step); i++) {
                    if (step > 0) {
                        v = Math.multiplyExact(v, factor);
                    } else if (v % factor == 0) {
                        v /= factor;
                    } else {
                        return 0;
                    }
                }
                return v;
            } catch (final ArithmeticException e) {
                return 0;
            }
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

    /**
     * The size axis for {@code sizes} (bytes, all above 0; at least one): ticks at the powers of ten or two, unless
     * three or more sizes, not all near such a power, form a ladder of their own (4 MB, 16 MB, 64 MB: a sweep of
     * element counts); then the ticks are the ladder's steps, each at a size measured or one the ladder would hold.
     */
    static SizeScale sizes(final Collection<Long> sizes) {
        final boolean decimal = decimal(sizes);
        final SizeScale ladder = ladder(sizes, decimal);
        if (ladder != null) {
            return ladder;
        }
        return span(sizes, new SizeScale(decimal, 0, 0));
    }

    /** {@code scale}'s ladder from the step of the smallest size to that of the largest, at least two steps. */
    private static SizeScale span(final Collection<Long> sizes, final SizeScale scale) {
        double smallest = Double.MAX_VALUE;
        double largest = -Double.MAX_VALUE;
        for (final long s : sizes) {
            smallest = Math.min(smallest, scale.x(s));
            largest = Math.max(largest, scale.x(s));
        }
        // a size within 1 % of a step counts as on it (10 MB rounded to whole elements per rank at W = 3)
        final double near = Math.log1p(NominalSizes.TOLERANCE) / Math.log(scale.base());
        int lo = (int) Math.floor(smallest + near);
        int hi = (int) Math.ceil(largest - near);
        for (boolean up = true; hi - lo < 2; up = !up) {
            if (up || lo == 0 && scale.origin() == 1) {
                hi++;
            } else {
                lo--;
            }
        }
        return new SizeScale(scale.decimal(), lo, hi, scale.origin(), scale.factor());
    }

    /**
     * The ladder of {@code sizes} when three or more nominal sizes are not all within 1 % of a power of ten
     * ({@code decimal}) or two, and each is within 1 % of the smallest times a whole power of one whole factor
     * (the ratio of the two smallest); else null.
     */
    private static SizeScale ladder(final Collection<Long> sizes, final boolean decimal) {
        final List<Long> nominal = new ArrayList<>(new java.util.TreeSet<>(new NominalSizes(sizes).all()));
        final double near = Math.log1p(NominalSizes.TOLERANCE);
        final double base = decimal ? 10 : 2;
        final boolean onPowers = nominal.stream().allMatch(s -> Math.abs(Math.log(s) / Math.log(base)
            - Math.rint(Math.log(s) / Math.log(base))) <= near / Math.log(base));
        if (nominal.size() < 3 || onPowers) {
            return null;
        }
        final long origin = nominal.get(0);
        final long factor = Math.round((double) nominal.get(1) / origin);
        if (factor < 2 || factor > 1 << 20) {
            return null;
        }
        for (final long s : nominal) {
            final double k = Math.log((double) s / origin) / Math.log(factor);
            if (Math.abs(k - Math.rint(k)) > near / Math.log(factor)) {
                return null;
            }
        }
        return span(sizes, new SizeScale(decimal, 0, 0, origin, (int) factor));
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
            final boolean d = Numbers.decimal(s);
            final boolean b = !d && Numbers.exactBytes(s).endsWith("iB");
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

    /**
     * The round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten) at or above 1.05 {@code v}: 9.7
     * gives 12, not 20, so the largest value fills at least 5/6 of the axis (before: 1 then 2, and data at 9.7 GB/s
     * used half the plot under a top of 20).
     */
    static double niceAbove(final double v) {
        final double target = v * 1.05;
        final double decade = Math.pow(10, Math.floor(Math.log10(target)));
        for (final double m : new double[] {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
            if (m * decade >= target) {
                return m * decade;
            }
        }
        return 10 * decade;
    }

    /**
     * The value axis for the finite, positive {@code values} (others are ignored): logarithmic from the power of ten
     * at or below the smallest to the one at or above the largest (at least two decades, so the top tick is
     * labelled and above every value) when they span a factor 10 or more, else linear.
     */
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
        final double bottom = Math.floor(Math.log10(lo));
        final double top = Math.max(Math.ceil(Math.log10(hi)), bottom + 2);
        return new ValueScale(true, Math.pow(10, bottom), Math.pow(10, top));
    }

    /**
     * A linear axis from 0 to a round number above the largest of the finite, positive {@code values}: for
     * bandwidth, whose plateau is the figure that matters (366 and 322 GB/s stay 12 % apart, where a log axis over
     * the latency ramp draws them a hairline apart).
     */
    static ValueScale linear(final Collection<Double> values) {
        final double hi = values.stream().filter(v -> Double.isFinite(v) && v > 0).mapToDouble(v -> v).max()
            .orElse(0);
        return hi == 0 ? new ValueScale(false, Double.NaN, Double.NaN) : new ValueScale(false, 0, niceAbove(hi));
    }
}
