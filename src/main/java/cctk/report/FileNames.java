package cctk.report;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * File names made from data (a collective's name from a result file): letters, digits, {@code .}, {@code _} and
 * {@code -} only, never starting with a dot, at most {@link #MAX_STEM} characters before the suffix, and unique
 * within one report ({@code -2}, {@code -3} added on a clash). Never a path: no separator can survive.
 * <b>Note:</b> not threadsafe.
 */
final class FileNames {

    /** The longest stem kept; the rest of a long name is cut. */
    static final int MAX_STEM = 64;

    private final Set<String> taken = new HashSet<>();

    /** A fresh, safe name: {@code stem} sanitised, then {@code suffix} (a fixed, safe text such as ".png"). */
    String name(final String stem, final String suffix) {
        final String base = safe(stem);
        String name = base + suffix;
        for (int n = 2; !taken.add(name.toLowerCase(Locale.ROOT)); n++) {
            name = base + "-" + n + suffix;
        }
        return name;
    }

    /** {@code text} in the fixed alphabet, cut to {@link #MAX_STEM}; "x" when nothing is left. */
    static String safe(final String text) {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < text.length() && sb.length() < MAX_STEM; i++) {
            final char c = text.charAt(i);
            final boolean ok = c < 128 && (Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.');
            sb.append(ok ? c : '_');
        }
        while (sb.length() > 0 && sb.charAt(0) == '.') {
            sb.setCharAt(0, '_');
        }
        return sb.length() == 0 ? "x" : sb.toString();
    }
}
