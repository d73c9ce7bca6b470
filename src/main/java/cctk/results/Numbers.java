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
    private static final String[] DECIMAL = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};

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
     * A size for people, as it was most likely asked for: exact in the unit, binary or decimal, that leaves the
     * smaller number ({@code 64 KiB}, {@code 1 GiB}, {@code 400 MB} rather than {@code 390625 KiB}, {@code 64 MB}
     * rather than {@code 62500 KiB}; a tie is binary: {@code 1000 KiB}); when no unit from 1 KiB or 1 KB divides it,
     * with 2 decimals in the largest unit it reaches of the ladder, decimal or binary, in which it is nearer a round
     * number ({@code 10.00 MB} for 9,999,996 B: 10 MB rounded to whole elements per rank; {@code 16.00 MiB} for
     * 16 MiB less 16 B; {@code 1.43 MiB}); below 1000 B in bytes ({@code 999 B}).
     */
    public static String size(final long bytes) {
        final String exact = exactBytes(bytes);
        final String decimal = exactDecimal(bytes);
        if (exact.endsWith("iB")) {
            final String digits = exact.replaceAll("[A-Za-z]+$", "");
            if (decimal == null || Long.parseLong(digits) <= Long.parseLong(decimal.substring(0,
                decimal.indexOf(' ')))) {
                return digits + " " + exact.substring(digits.length());
            }
            return decimal;
        }
        if (decimal != null) {
            return decimal;
        }
        if (bytes < 1024) {
            return bytes + " B";
        }
        final boolean dec = offRound(bytes, 1000) < offRound(bytes, 1024);
        final String[] units = dec ? DECIMAL : UNITS;
        int u = 0;
        double v = bytes;
        while (v >= (dec ? 1000 : 1024) && u < units.length - 1) {
            v /= dec ? 1000 : 1024;
            u++;
        }
        return fit(v, 10).trim() + " " + units[u];
    }

    /** {@code 4 MB - 400 MB}, or one size once ({@code 400 MB}, never {@code 400 MB - 400 MB}); as {@link #size}. */
    public static String span(final long from, final long to) {
        return from == to ? size(from) : size(from) + " - " + size(to);
    }

    /**
     * Bytes as a spec writes them, in the unit {@link #size} prints ({@code 400MB}, {@code 4MiB}, {@code 1536KiB},
     * {@code 1KB}), or in the largest binary unit that divides them exactly when {@link #size} must round
     * ({@code 1499999B}): what {@code cctk.spec.Sizes} reads back to the same bytes, and what was asked.
     */
    public static String specSize(final long bytes) {
        final String asked = size(bytes);
        return asked.matches("[0-9]+ (B|KiB|MiB|GiB|KB|MB|GB)") ? asked.replace(" ", "") : exactBytes(bytes);
    }

    /**
     * How far {@code bytes}, in the largest unit of the {@code step} ladder it reaches, is from the nearest number of
     * 3 significant digits, relative to it: 9,999,996 B is 10.0 MB less 4e-7, but 9.5367 MiB.
     */
    private static double offRound(final long bytes, final int step) {
        double v = bytes;
        while (v >= step) {
            v /= step;
        }
        final double round = new BigDecimal(v).round(new MathContext(3)).doubleValue();
        return Math.abs(v - round) / v;
    }

    /** True when {@link #size} prints {@code bytes} in a decimal unit ({@code 400 MB}, {@code 1 KB}). */
    public static boolean decimal(final long bytes) {
        return size(bytes).matches("[0-9]+ [KMGTPE]B");
    }

    /**
     * {@code bytes} (not necessarily whole) to 3 significant digits in the largest unit it reaches: decimal
     * ({@code 3.16 MB}) or binary ({@code 1.41 MiB}); below 1 in bytes ({@code 0.5 B}).
     */
    public static String approximateSize(final double bytes, final boolean decimal) {
        if (!Double.isFinite(bytes) || bytes < 0) {
            return "?";
        }
        final String[] units = decimal ? DECIMAL : UNITS;
        final double step = decimal ? 1000 : 1024;
        int u = 0;
        double v = bytes;
        while (v >= step && u < units.length - 1) {
            v /= step;
            u++;
        }
        return exact(new BigDecimal(v).round(new MathContext(3)).doubleValue()) + " " + units[u];
    }

    /**
     * {@code bytes} in the largest decimal unit from KB up that divides it exactly ({@code 10 MB}, {@code 1500 KB}),
     * or null when none does.
     */
    public static String exactDecimal(final long bytes) {
        long scale = 1;
        int unit = 0;
        while (unit < DECIMAL.length - 1 && bytes / 1000 >= scale) {
            scale *= 1000;
            unit++;
        }
        for (; unit > 0; unit--, scale /= 1000) {
            if (bytes % scale == 0) {
                return bytes / scale + " " + DECIMAL[unit];
            }
        }
        return null;
    }

    /**
     * {@code v} as C's {@code %g} prints it (6 significant digits, trailing zeros dropped, an exponent below 1e-4
     * and from 1e6): how nccl-tests prints its wrong-element count and average bus bandwidth.
     */
    public static String general(final double v) {
        if (!Double.isFinite(v)) {
            return Double.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf";
        }
        if (v == 0) {
            return "0";
        }
        final int exp = (int) Math.floor(Math.log10(Math.abs(new BigDecimal(v).round(new MathContext(6))
            .doubleValue())));
        if (exp < -4 || exp >= 6) {
            final String m = String.format(Locale.ROOT, "%.5e", v);
            final int e = m.indexOf('e');
            return stripZeros(m.substring(0, e)) + m.substring(e);
        }
        return stripZeros(String.format(Locale.ROOT, "%." + Math.max(0, 5 - exp) + "f", v));
    }

    private static String stripZeros(final String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        final String t = s.replaceAll("0+$", "");
        return t.endsWith(".") ? t.substring(0, t.length() - 1) : t;
    }

    private static String pad(final String s, final int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }
}
