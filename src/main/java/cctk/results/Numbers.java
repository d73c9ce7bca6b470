package cctk.results;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * The one place numbers become text. {@link #fit} is nccl-tests' getFloatStr rule: fill a fixed width
 * with as many decimals as fit (2, then 1, then 0), then fall back to an exponent.
 */
public final class Numbers {

    /** The units a spec reads back ({@code cctk.spec.Sizes}), largest first. */
    private static final String[] BINARY = {"GiB", "MiB", "KiB"};
    private static final long[] BINARY_SCALE = {1L << 30, 1L << 20, 1L << 10};
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private Numbers() {
    }

    /** {@code v} right-aligned in {@code width} characters with at most 2 decimals; "N/A" when not finite. */
    public static String fit(final double v, final int width) {
        return fit(v, width, 2);
    }

    /** {@code v} in {@code width} characters, trying {@code maxDecimals} decimals down to 0, then exponents. */
    public static String fit(final double v, final int width, final int maxDecimals) {
        if (!Double.isFinite(v)) {
            return pad("N/A", width);
        }
        for (int d = maxDecimals; d >= 0; d--) {
            final String s = String.format(Locale.ROOT, "%" + width + "." + d + "f", v);
            if (s.length() <= width) {
                return s;
            }
        }
        for (int p = Math.max(0, width - 6); p >= 0; p--) {
            final String s = String.format(Locale.ROOT, "%" + width + "." + p + "e", v);
            if (s.length() <= width) {
                return s;
            }
        }
        return String.format(Locale.ROOT, "%.0e", v);
    }

    /** {@code v} with exactly {@code decimals} decimals, no padding. */
    public static String fixed(final double v, final int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /** A whole number with thousands separators: {@code 1,048,576}. */
    public static String grouped(final long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }

    /**
     * {@code v} for machine-readable files: the shortest decimal that reads back as exactly {@code v}, in plain
     * notation ({@code 0.0000001}, {@code 1234.5}); "" when not finite. Figures are rounded where they are made
     * ({@link #significant}), so the files stay short.
     */
    public static String exact(final double v) {
        if (!Double.isFinite(v)) {
            return "";
        }
        if (v == 0) {
            return "0";
        }
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    /** {@code v} to 6 significant digits in plain notation ({@code 0.333333}, {@code 42}); "" when not finite. */
    public static String plain(final double v) {
        return exact(significant(v));
    }

    /** {@code v} rounded to 6 significant digits (NaN and infinities unchanged): the precision results carry. */
    public static double significant(final double v) {
        if (!Double.isFinite(v) || v == 0) {
            return v;
        }
        return new BigDecimal(v).round(new MathContext(6)).doubleValue();
    }

    /** Bytes in the largest binary unit that divides them exactly: {@code 4MiB}, {@code 1536KiB}, {@code 1000B}. */
    public static String exactBytes(final long bytes) {
        for (int i = 0; i < BINARY.length; i++) {
            if (bytes >= BINARY_SCALE[i] && bytes % BINARY_SCALE[i] == 0) {
                return bytes / BINARY_SCALE[i] + BINARY[i];
            }
        }
        return bytes + "B";
    }

    /**
     * A size for people: {@code 64 KiB}, {@code 1 GiB}, exact when a binary unit divides it, else in the largest
     * binary unit it reaches with 2 decimals ({@code 95.37 MiB}); below 1 KiB in bytes ({@code 1000 B}).
     */
    public static String size(final long bytes) {
        final String exact = exactBytes(bytes);
        if (exact.endsWith("iB") || bytes < 1024) {
            final String digits = exact.replaceAll("[A-Za-z]+$", "");
            return digits + " " + exact.substring(digits.length());
        }
        int u = 0;
        double v = bytes;
        while (v >= 1024 && u < UNITS.length - 1) {
            v /= 1024;
            u++;
        }
        return fit(v, 10).trim() + " " + UNITS[u];
    }

    private static String pad(final String s, final int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }
}
