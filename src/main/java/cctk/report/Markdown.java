package cctk.report;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

/** Tables as GitHub Markdown; cells cannot end a row or open an HTML tag. */
final class Markdown {

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
            sb.append(' ').append(c.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")
                .replace("\n", " ")).append(" |");
        }
        return sb.toString();
    }
}
