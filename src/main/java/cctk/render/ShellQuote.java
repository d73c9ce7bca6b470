package cctk.render;

import cctk.CctkException;
import java.util.regex.Pattern;

/**
 * The one POSIX shell quoter: every value that comes from a spec reaches the script through
 * {@link #quote}; text cctk built itself goes through {@link #passThrough}, by name.
 *
 * <p>A value becomes one single-quoted word, with each {@code '} written as {@code '\''}. Words made only of
 * characters no shell treats specially stay bare, so {@code --exclusive} reads as written. Values for the
 * {@code #SBATCH} block and its header comments also pass {@link #quoteDirective}: sbatch reads those lines itself,
 * line by line, so a newline could start a new directive, and its reader treats a backslash as an escape even
 * inside quotes, unlike bash.
 */
public final class ShellQuote {

    /** Words that mean nothing special to bash or sbatch's directive reader; a leading = is quoted for the eye. */
    private static final Pattern BARE = Pattern.compile("[A-Za-z0-9_@%+:,./-][A-Za-z0-9_@%+=:,./-]*");

    private ShellQuote() {
    }

    /**
     * Quotes a spec value as one shell word.
     *
     * @param key   the spec key it came from, named in the error
     * @param value the value; may hold newlines (a quoted word keeps them), never NUL
     * @throws CctkException USAGE when the value holds a NUL character, which no shell word can carry
     */
    public static ShellText quote(final String key, final String value) {
        if (value.indexOf('\0') >= 0) {
            throw CctkException.usage("The value of '" + key + "' contains a NUL character, which cannot be "
                    + "passed to a shell command; remove it from the spec.");
        }
        return new ShellText(quoteWord(value));
    }

    /**
     * Quotes a value that lands on an {@code #SBATCH} line or a header comment.
     *
     * @throws CctkException USAGE when the value holds a control character (newline, tab, NUL, ...) or a
     *                       backslash, naming the key
     */
    public static ShellText quoteDirective(final String key, final String value) {
        for (int i = 0; i < value.length(); i++) {
            final char c = value.charAt(i);
            if (Character.isISOControl(c)) {
                throw CctkException.usage("The value of '" + key + "' contains the control character U+"
                        + String.format("%04X", (int) c) + "; it would end up on an #SBATCH line of the job "
                        + "script, where sbatch reads line by line, so it is not allowed. Remove it from the spec.");
            }
            if (c == '\\') {
                throw CctkException.usage("The value of '" + key + "' contains a backslash; sbatch reads "
                        + "#SBATCH lines itself and treats a backslash as an escape even inside quotes, so the "
                        + "value would not arrive as written. Remove it from the spec.");
            }
        }
        return quote(key, value);
    }

    /** Text cctk built itself (fixed words, numbers, other {@link ShellText}s), inserted as it is. */
    public static ShellText passThrough(final String cctkBuilt) {
        return new ShellText(cctkBuilt);
    }

    /** The quoting rule itself, for values already checked. */
    static String quoteWord(final String value) {
        if (!value.isEmpty() && BARE.matcher(value).matches()) {
            return value;
        }
        return "'" + value.replace("'", "'\\''") + "'";
    }
}
