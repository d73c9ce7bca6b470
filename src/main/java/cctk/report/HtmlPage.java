package cctk.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.util.Base64;
import java.util.List;

/** One self-contained HTML page: the analysis, the plots inlined as data URIs, and the tables. */
final class HtmlPage {

    private HtmlPage() {
    }

    /** The line that opens the conclusion in the analysis text. */
    static final String CONCLUSION = "Conclusion:";

    /** The most rows a table on the page shows: a page of more is too slow to open; the files have them all. */
    static final int MAX_ROWS = 20_000;

    static void page(final Writer h, final String title, final List<String> analysis, final List<Plots.Plot> plots,
                     final List<Table> tables) throws IOException {
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
            .append(esc(title)).append("</title>\n<style>\n")
            .append("body{font-family:sans-serif;margin:2em;color:#222}\n")
            .append("table{border-collapse:collapse;margin-bottom:2em;font-size:0.85em}\n")
            .append("th,td{border:1px solid #ccc;padding:2px 6px}th{background:#eee}td.n{text-align:right}\n")
            .append("pre{background:#f6f6f6;padding:1em;white-space:pre-wrap}\n")
            .append("img{max-width:100%;border:1px solid #ddd}\n")
            .append(".conclusion{max-width:70em;line-height:1.4}.conclusion li{margin:0.2em 0}\n")
            .append(".PASS{color:#070;font-weight:bold}.FAIL{color:#b00;font-weight:bold}\n")
            .append("</style>\n</head>\n<body>\n<h1>").append(esc(title)).append("</h1>\n");
        final int end = analysis.indexOf(CONCLUSION);
        if (end >= 0) {
            conclusion(h, analysis.subList(end + 1, analysis.size()));
        }
        h.append("<h2>Analysis</h2>\n<pre>");
        for (final String line : end >= 0 ? analysis.subList(0, end) : analysis) {
            h.append(esc(line)).append('\n');
        }
        h.append("</pre>\n<h2>Plots</h2>\n");
        for (final Plots.Plot p : plots) {
            final String data = Base64.getEncoder().encodeToString(Files.readAllBytes(p.file()));
            h.append("<figure><img alt=\"").append(esc(p.caption())).append("\" src=\"data:image/png;base64,")
                .append(data).append("\"><figcaption>").append(esc(p.caption())).append("</figcaption></figure>\n");
        }
        for (final Table t : tables) {
            table(h, t);
        }
        h.append("</body>\n</html>\n");
    }

    /** The analysis's conclusion ({@link Conclusion}) first, as paragraphs and lists. */
    private static void conclusion(final Writer h, final List<String> lines) throws IOException {
        h.append("<h2>Conclusion</h2>\n<div class=\"conclusion\">\n");
        boolean list = false;
        for (final String raw : lines) {
            final String line = raw.strip();
            final boolean item = raw.startsWith("    ") || line.startsWith("- ");
            if (item && !list) {
                h.append("<ul>\n");
            } else if (!item && list) {
                h.append("</ul>\n");
            }
            list = item;
            h.append(item ? "<li>" : "<p>").append(esc(line.startsWith("- ") ? line.substring(2) : line))
                .append(item ? "</li>\n" : "</p>\n");
        }
        h.append(list ? "</ul>\n</div>\n" : "</div>\n");
    }

    private static void table(final Writer h, final Table t) throws IOException {
        h.append("<h2>").append(esc(t.title())).append("</h2>\n<table>\n<tr>");
        for (final String c : t.headers()) {
            h.append("<th>").append(esc(c)).append("</th>");
        }
        h.append("</tr>\n");
        final int shown = Math.min(MAX_ROWS, t.rows().size());
        for (final List<String> row : t.rows().subList(0, shown)) {
            h.append("<tr>");
            for (int i = 0; i < row.size(); i++) {
                final String cell = row.get(i);
                final String cls = t.numeric().get(i) ? " class=\"n\""
                    : cell.equals("PASS") || cell.equals("FAIL") ? " class=\"" + cell + "\"" : "";
                h.append("<td").append(cls).append('>').append(esc(cell)).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</table>\n");
        if (shown < t.rows().size()) {
            h.append("<p>The first ").append(Integer.toString(shown)).append(" of ")
                .append(Integer.toString(t.rows().size()))
                .append(" rows; combined.csv and full_results.md have all.</p>\n");
        }
    }

    static String esc(final String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
