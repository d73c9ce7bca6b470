package cctk.render;

/**
 * Text that is safe to paste into a bash script as it is: either a value quoted by {@link ShellQuote#quote}
 * or text cctk built itself and passed through {@link ShellQuote#passThrough}. The template takes nothing else.
 *
 * @param text the script text
 */
public record ShellText(String text) {

    /** Joins pieces with a separator that cctk chose (a space, a newline). */
    public static ShellText join(final String separator, final Iterable<ShellText> parts) {
        final StringBuilder sb = new StringBuilder();
        for (final ShellText part : parts) {
            if (sb.length() > 0) {
                sb.append(separator);
            }
            sb.append(part.text());
        }
        return new ShellText(sb.toString());
    }

    @Override
    public String toString() {
        return text;
    }
}
