package cctk.render;

/**
 * Text that is safe to paste into a bash script as it is: either a value quoted by {@link ShellQuote#quote}
 * or text cctk built itself and passed through {@link ShellQuote#passThrough}. The template takes nothing else,
 * and only this package can make one.
 */
public final class ShellText {

    private final String text;

    ShellText(final String text) {
        this.text = text;
    }

    /** The script text. */
    public String text() {
        return text;
    }

    /** Joins pieces with a separator that cctk chose (a space, a newline). */
    public static ShellText join(final String separator, final Iterable<ShellText> parts) {
        final StringBuilder sb = new StringBuilder();
        boolean first = true;
        for (final ShellText part : parts) {
            if (!first) {
                sb.append(separator);
            }
            sb.append(part.text());
            first = false;
        }
        return new ShellText(sb.toString());
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof ShellText && ((ShellText) o).text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
