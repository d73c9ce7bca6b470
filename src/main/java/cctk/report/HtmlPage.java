package cctk.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One self-contained HTML page: a table of contents, the conclusion, the analysis, the plots inlined as data URIs,
 * and the tables.
 */
final class HtmlPage {

    private HtmlPage() {
    }

    /** The line that opens the conclusion in the analysis text. */
    static final String CONCLUSION = "Conclusion:";

    /** The most rows a table on the page shows: a page of more is too slow to open; the files have them all. */
    static final int MAX_ROWS = 20_000;

    /**
     * Writes the page: a table of contents, the conclusion, the analysis, the plots (the first of each collective
     * {@code collectives} names carries the anchor {@code coll-NAME}), the tables; the layout narrows for small
     * screens and prints without the navigation's links.
     */
    static void page(final Writer h, final String title, final List<String> analysis, final List<Plots.Plot> plots,
                     final List<Table> tables, final List<String> collectives) throws IOException {
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
            .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
            .append(esc(title)).append("</title>\n<style>\n")
            .append("body{font-family:sans-serif;margin:2em;color:#222;max-width:90em}\n")
            .append("table{border-collapse:collapse;margin-bottom:2em;font-size:0.85em}\n")
            .append("th,td{border:1px solid #ccc;padding:2px 6px}th{background:#eee}td.n{text-align:right}\n")
            .append("pre{background:#f6f6f6;padding:1em;white-space:pre-wrap}\n")
            .append("img{max-width:100%;border:1px solid #ddd}\n")
            .append(".conclusion{max-width:70em;line-height:1.4}.conclusion li{margin:0.2em 0}\n")
            .append(".PASS{color:#070;font-weight:bold}.FAIL{color:#b00;font-weight:bold}\n")
            .append("nav ul{columns:2;font-size:0.9em}\n")
            .append("@media (max-width:700px){body{margin:0.5em}nav ul{columns:1}")
            .append("table{display:block;overflow-x:auto;font-size:0.75em}pre{font-size:0.8em}}\n")
            .append("@media print{body{margin:0;max-width:none;font-size:10pt}a{color:inherit;text-decoration:none}")
            .append("figure,tr,li{break-inside:avoid}h2{break-after:avoid}pre{white-space:pre-wrap}")
            .append("table{font-size:8pt}}\n")
            .append("</style>\n</head>\n<body>\n<h1>").append(esc(title)).append("</h1>\n");
        final int end = analysis.indexOf(CONCLUSION);
        final Map<String, Integer> firstPlot = firstPlots(plots, collectives);
        contents(h, end >= 0, firstPlot, plots, tables);
        if (end >= 0) {
            conclusion(h, analysis.subList(end + 1, analysis.size()));
        }
        h.append("<h2 id=\"analysis\">Analysis</h2>\n<pre>");
        for (final String line : end >= 0 ? analysis.subList(0, end) : analysis) {
            h.append(esc(line)).append('\n');
        }
        h.append("</pre>\n<h2 id=\"plots\">Plots</h2>\n");
        final int left = analysis.indexOf(AnalysisText.UNPLOTTED);
        if (left >= 0) {
            h.append("<p>").append(esc(AnalysisText.UNPLOTTED)).append("</p>\n<ul>\n");
            for (int i = left + 1; i < analysis.size() && analysis.get(i).startsWith("  "); i++) {
                h.append("<li>").append(esc(analysis.get(i).strip())).append("</li>\n");
            }
            h.append("</ul>\n");
        }
        for (int i = 0; i < plots.size(); i++) {
            final Plots.Plot p = plots.get(i);
            final String data = Base64.getEncoder().encodeToString(Files.readAllBytes(p.file()));
            final int at = i;
            final String id = firstPlot.entrySet().stream().filter(e -> e.getValue() == at)
                .map(e -> " id=\"" + anchor(e.getKey()) + "\"").findFirst().orElse("");
            h.append("<figure").append(id).append("><img alt=\"").append(esc(p.caption()))
                .append("\" src=\"data:image/png;base64,").append(data).append("\"><figcaption>")
                .append(esc(p.caption())).append("</figcaption></figure>\n");
        }
        for (int i = 0; i < tables.size(); i++) {
            table(h, tables.get(i), "table-" + (i + 1));
        }
        h.append("</body>\n</html>\n");
    }

    /** Per collective, the index of its first plot (a caption opens with the collective's name and a space). */
    private static Map<String, Integer> firstPlots(final List<Plots.Plot> plots, final List<String> collectives) {
        final Map<String, Integer> out = new LinkedHashMap<>();
        for (final String c : collectives) {
            for (int i = 0; i < plots.size() && !out.containsKey(c); i++) {
                if (plots.get(i).caption().startsWith(c + " ")) {
                    out.put(c, i);
                }
            }
        }
        return out;
    }

    /** The table of contents: the sections, a link per collective's plots, a link per table. */
    private static void contents(final Writer h, final boolean conclusion, final Map<String, Integer> firstPlot,
                                 final List<Plots.Plot> plots, final List<Table> tables) throws IOException {
        h.append("<nav id=\"contents\"><h2>Contents</h2>\n<ul>\n");
        if (conclusion) {
            h.append("<li><a href=\"#conclusion\">Conclusion</a></li>\n");
        }
        h.append("<li><a href=\"#analysis\">Analysis</a></li>\n");
        if (!plots.isEmpty()) {
            h.append("<li><a href=\"#plots\">Plots</a>");
            if (!firstPlot.isEmpty()) {
                h.append("<ul>");
                for (final String c : firstPlot.keySet()) {
                    h.append("<li><a href=\"#").append(anchor(c)).append("\">").append(esc(c)).append("</a></li>");
                }
                h.append("</ul>");
            }
            h.append("</li>\n");
        }
        for (int i = 0; i < tables.size(); i++) {
            h.append("<li><a href=\"#table-").append(Integer.toString(i + 1)).append("\">")
                .append(esc(tables.get(i).title())).append("</a></li>\n");
        }
        h.append("</ul>\n</nav>\n");
    }

    /** A collective's anchor: {@code coll-} and its name, every character but a letter, digit, - or _ as _. */
    static String anchor(final String collective) {
        return "coll-" + collective.replaceAll("[^A-Za-z0-9_-]", "_");
    }

    /** The analysis's conclusion ({@link Conclusion}) first, as paragraphs and lists. */
    private static void conclusion(final Writer h, final List<String> lines) throws IOException {
        h.append("<h2 id=\"conclusion\">Conclusion</h2>\n<div class=\"conclusion\">\n");
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

    private static void table(final Writer h, final Table t, final String id) throws IOException {
        h.append("<h2 id=\"").append(id).append("\">").append(esc(t.title())).append("</h2>\n<table>\n<tr>");
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
