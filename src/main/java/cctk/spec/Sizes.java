package cctk.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Message sizes as specs write them: {@code 4MiB}, {@code 1KB}, {@code 512B} count bytes (KiB/MiB/GiB binary,
 * KB/MB/GB decimal); a plain integer counts elements, as a tensor of N elements does. Also the min/max/factor sweep.
 */
public final class Sizes {

    /** The largest size cctk accepts, in bytes (and in elements). */
    public static final long MAX = 16L << 30;
    /** The most sizes a sweep may expand to. */
    public static final int MAX_SWEEP = 64;

    private static final Pattern WITH_UNIT = Pattern.compile("(0|[1-9][0-9]*) ?(B|KiB|MiB|GiB|KB|MB|GB)");

    private Sizes() {
    }

    /** What a size may look like, for problems. */
    static final String EXPECTED = "a size such as 4MiB, 64KiB, 1MB or 512B (bytes), or a plain integer"
            + " (elements), from 1 to 16GiB";

    /**
     * A size written with a unit ({@code 4MiB}, bytes) or as digits alone (elements).
     *
     * @throws IllegalArgumentException naming what is expected
     */
    public static MessageSize parse(final String text) {
        final Matcher m = WITH_UNIT.matcher(text.trim());
        final MessageSize size;
        if (m.matches()) {
            size = new MessageSize(multiply(m.group(1), scale(m.group(2))), false);
        } else if (text.trim().matches("[1-9][0-9]*")) {
            size = new MessageSize(multiply(text.trim(), 1), true);
        } else {
            throw new IllegalArgumentException(EXPECTED);
        }
        if (size.value() < 1 || size.value() > MAX) {
            throw new IllegalArgumentException(EXPECTED);
        }
        return size;
    }

    private static long multiply(final String digits, final long scale) {
        if (digits.length() > 12) {
            return Long.MAX_VALUE;
        }
        final long n = Long.parseLong(digits);
        return n > Long.MAX_VALUE / scale ? Long.MAX_VALUE : n * scale;
    }

    private static long scale(final String unit) {
        switch (unit) {
            case "KiB": return 1L << 10;
            case "MiB": return 1L << 20;
            case "GiB": return 1L << 30;
            case "KB": return 1_000L;
            case "MB": return 1_000_000L;
            case "GB": return 1_000_000_000L;
            default: return 1L;
        }
    }

    /**
     * The spec text that {@link #parse} reads back to the same size, as it was asked: {@code 4MiB}, {@code 400MB}
     * (not {@code 390625KiB}), {@code 256} elements.
     */
    public static String format(final MessageSize size) {
        return size.elements() ? Long.toString(size.value()) : cctk.results.Numbers.specSize(size.value());
    }

    /**
     * min, min*factor, ... up to and including max (both in the same unit: bytes or elements).
     *
     * @throws IllegalArgumentException when the units differ, min > max, or the sweep has too many sizes
     */
    public static List<MessageSize> sweep(final MessageSize min, final MessageSize max, final int factor) {
        if (min.elements() != max.elements()) {
            throw new IllegalArgumentException("min and max in the same unit (both with a byte unit, or both plain"
                    + " element counts)");
        }
        if (min.value() > max.value()) {
            throw new IllegalArgumentException("min <= max");
        }
        if (factor < 2) {
            throw new IllegalArgumentException("a factor >= 2");
        }
        final List<MessageSize> out = new ArrayList<>();
        for (long v = min.value(); v <= max.value(); v *= factor) {
            if (out.size() == MAX_SWEEP) {
                throw new IllegalArgumentException("a sweep of at most " + MAX_SWEEP + " sizes");
            }
            out.add(new MessageSize(v, min.elements()));
            if (v > max.value() / factor) {
                break;
            }
        }
        return List.copyOf(out);
    }
}
