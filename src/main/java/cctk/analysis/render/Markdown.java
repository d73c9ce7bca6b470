package cctk.analysis.render;

import java.util.ArrayList;
import java.util.List;

/** Tables as GitHub Markdown. */
final class Markdown {

    private Markdown() {
    }

    static List<String> table(final Table t) {
        final List<String> lines = new ArrayList<>();
        lines.add("## " + t.title());
        lines.add("");
        lines.add(row(t.headers()));
        final StringBuilder rule = new StringBuilder("|");
        for (final boolean n : t.numeric()) {
            rule.append(n ? " ---: |" : " --- |");
        }
        lines.add(rule.toString());
        for (final List<String> r : t.rows()) {
            lines.add(row(r));
        }
        lines.add("");
        return lines;
    }

    private static String row(final List<String> cells) {
        final StringBuilder sb = new StringBuilder("|");
        for (final String c : cells) {
            sb.append(' ').append(c.replace("|", "\\|").replace("\n", " ")).append(" |");
        }
        return sb.toString();
    }
}
