package cctk;

/**
 * Text from outside (result files, file names, arguments, Slurm's output) made safe to print and to put in report
 * files: control characters (ESC, BEL, CR, ...), Unicode format characters (bidirectional overrides) and line or
 * paragraph separators become {@code ?}, so no byte of an input can move the cursor, retitle a terminal or hide
 * text. The one place that decides what is printable. <b>Note:</b> stateless.
 */
public final class Printable {

    private Printable() {
    }

    /** {@code s} with every unsafe character replaced by {@code ?}; null stays null. */
    public static String of(final String s) {
        if (s == null) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            if (unsafe(s.charAt(i))) {
                return replace(s);
            }
        }
        return s;
    }

    /** A message for the terminal: as {@link #of}, but its own newlines and tabs stay; null becomes "". */
    public static String message(final String s) {
        if (s == null) {
            return "";
        }
        final StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            sb.append(c != '\n' && c != '\t' && unsafe(c) ? '?' : c);
        }
        return sb.toString();
    }

    private static String replace(final String s) {
        final StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            sb.append(unsafe(c) ? '?' : c);
        }
        return sb.toString();
    }

    private static boolean unsafe(final char c) {
        final int type = Character.getType(c);
        return type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
            || type == Character.PARAGRAPH_SEPARATOR;
    }
}
