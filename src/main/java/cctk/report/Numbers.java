package cctk.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * The one place numbers become text. {@link #fit} is nccl-tests' getFloatStr rule: fill a fixed width
 * with as many decimals as fit (2, then 1, then 0), then fall back to an exponent.
 */
public final class Numbers {

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

    /** {@code v} for machine-readable files: 6 significant digits, plain notation, "" when not finite. */
    public static String plain(final double v) {
        if (!Double.isFinite(v)) {
            return "";
        }
        if (v == 0) {
            return "0";
        }
        return new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros().toPlainString();
    }

    private static String pad(final String s, final int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }
}
