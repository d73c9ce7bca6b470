package cctk.report;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * Tables as GitHub Markdown. A cell is data, shown as its text: it cannot end a row, open an HTML tag or comment, or
 * become emphasis, code, a link or an image. Markdown's punctuation in it is backslash-escaped (CommonMark: any
 * ASCII punctuation may be), {@code <}, {@code >} and {@code &} become entities, and the text that GitHub would turn
 * into a link by itself ({@code https://}, {@code www.}, {@code user@host}) is broken up with an entity, so that it
 * shows the same but links nowhere.
 */
final class Markdown {

    /** Characters always backslash-escaped in a cell: they end a row or make code, emphasis, links or images. */
    private static final String ESCAPED = "\\`*[]|~";

    private Markdown() {
    }

    /** The table, one row at a time, ending with a blank line. */
    static void write(final Table t, final Writer w) throws IOException {
        w.write("## " + t.title() + "\n\n");
        w.write(row(t.headers()) + "\n");
        final StringBuilder rule = new StringBuilder("|");
        for (final boolean n : t.numeric()) {
            rule.append(n ? " ---: |" : " --- |");
        }
        w.write(rule + "\n");
        for (final List<String> r : t.rows()) {
            w.write(row(r));
            w.write('\n');
        }
        w.write('\n');
    }

    private static String row(final List<String> cells) {
        final StringBuilder sb = new StringBuilder("|");
        for (final String c : cells) {
            sb.append(' ').append(cell(c)).append(" |");
        }
        return sb.toString();
    }

    /** One cell's text, inert: what a reader sees is {@code text}, and nothing in it acts as Markdown or HTML. */
    static String cell(final String text) {
        final StringBuilder sb = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            final char ch = text.charAt(i);
            switch (ch) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '@' -> sb.append("&#64;");
                case '\n', '\r' -> sb.append(' ');
                case ':' -> sb.append(text.startsWith("//", i + 1) ? "&#58;" : ":");
                case '.' -> sb.append(i >= 3 && text.regionMatches(true, i - 3, "www", 0, 3) ? "&#46;" : ".");
                case '_' -> sb.append(inWord(text, i) ? "_" : "\\_");
                default -> {
                    if (ESCAPED.indexOf(ch) >= 0) {
                        sb.append('\\');
                    }
                    sb.append(ch);
                }
            }
        }
        return sb.toString();
    }

    /**
     * True for an underscore between two letters or digits ({@code all_reduce}): CommonMark lets such an underscore
     * neither open nor close emphasis, so it stays as it is, readable in the file.
     */
    private static boolean inWord(final String text, final int i) {
        return i > 0 && i + 1 < text.length() && Character.isLetterOrDigit(text.charAt(i - 1))
            && Character.isLetterOrDigit(text.charAt(i + 1));
    }
}
