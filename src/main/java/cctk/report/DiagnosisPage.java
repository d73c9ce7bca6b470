package cctk.report;

import cctk.OwnerFiles;
import cctk.results.Numbers;
import java.awt.Color;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.HeatMapChart;
import org.knowm.xchart.HeatMapChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * The report page of a {@code cctk diagnose} record: the verdict, the suspects with their evidence, one node × node
 * heat map of the pairs' send/recv bus bandwidth per mode (NIC or striped), and a bar chart of each node's figure
 * per mode and inside the node, so the slow row, column or bar is seen at a glance. Written into its own directory
 * as {@code diagnosis.html} (self-contained: images inlined) and the PNG files; at most {@link #MAX_NODES} nodes are
 * drawn (the CSV files have them all).
 * <b>Note:</b> threadsafe (no state).
 */
public final class DiagnosisPage {

    /** The most nodes a heat map or the bar chart draws. */
    public static final int MAX_NODES = 64;
    private static final int SIZE = 900;
    private static final Color[] HEAT = {new Color(0xb2182b), new Color(0xf4a582), new Color(0xf7f7f7),
        new Color(0x92c5de), new Color(0x2166ac)};

    private DiagnosisPage() {
    }

    /** Writes the page and its plots for {@code record} into {@code dir}; returns the files, the page first. */
    public static List<Path> write(final DiagnosisRecord record, final Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        OwnerFiles.directory(dir);
        final int n = Math.min(MAX_NODES, record.nodes().size());
        final List<Path> plots = new ArrayList<>();
        final List<String> captions = new ArrayList<>();
        for (final Map.Entry<String, double[][]> e : record.modes().stream()
                .map(m -> Map.entry(m, record.pairs().get(m))).toList()) {
            final Path file = dir.resolve("diagnosis_heatmap_" + plain(e.getKey()) + ".png");
            save(heatMap(record, e.getKey(), e.getValue(), n), file);
            plots.add(file);
            captions.add("send/recv bus bandwidth of every pair of nodes on " + e.getKey() + " (GB/s)" + cut(record));
        }
        final Path bars = dir.resolve("diagnosis_nodes.png");
        save(bars(record, n), bars);
        plots.add(bars);
        captions.add("each node's figure: the median of its pairs per mode, and inside the node (GB/s)" + cut(record));
        final Path page = dir.resolve("diagnosis.html");
        try (Writer h = OwnerFiles.text(page)) {
            html(h, record, plots, captions);
        }
        final List<Path> out = new ArrayList<>(List.of(page));
        out.addAll(plots);
        return out;
    }

    /**
     * A mode's heat map. Its colours are relative to the mode's healthy median (the median of every pair), not to
     * the run's own minimum and maximum: the median is the middle colour (white), 0 deep red, twice the median deep
     * blue; so a clean cluster is pale everywhere and only a pair well below its peers shows red.
     */
    static HeatMapChart heatMap(final DiagnosisRecord r, final String mode, final double[][] grid, final int n) {
        final HeatMapChart chart = new HeatMapChartBuilder().width(SIZE).height(SIZE)
                .title("pairs on " + mode + ": send/recv busbw (GB/s), white at the median").xAxisTitle("node")
                .yAxisTitle("node").build();
        final List<Number[]> cells = new ArrayList<>();
        final double[] values = new double[n * n];
        int k = 0;
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                if (Double.isFinite(grid[a][b])) {
                    cells.add(new Number[] {a, b, Numbers.significant(grid[a][b])});
                    values[k++] = grid[a][b];
                }
            }
        }
        chart.getStyler().setRangeColors(HEAT).setShowValue(n <= 16).setLegendVisible(true);
        chart.getStyler().setHeatMapValueDecimalPattern("#0.000");
        final double median = median(values, k);
        if (median > 0) {
            chart.getStyler().setMin(0).setMax(2 * median);
        }
        chart.addSeries("busbw", r.nodes().subList(0, n), r.nodes().subList(0, n), cells);
        return chart;
    }

    private static double median(final double[] values, final int count) {
        if (count == 0) {
            return Double.NaN;
        }
        final double[] v = java.util.Arrays.copyOf(values, count);
        java.util.Arrays.sort(v);
        return count % 2 == 1 ? v[count / 2] : (v[count / 2 - 1] + v[count / 2]) / 2;
    }

    private static CategoryChart bars(final DiagnosisRecord r, final int n) {
        final CategoryChart chart = new CategoryChartBuilder().width(SIZE + 300).height(SIZE / 2 + 100)
                .title("each node: median of its pairs per mode, and inside the node").xAxisTitle("node")
                .yAxisTitle("busbw (GB/s)").build();
        final List<String> names = r.nodes().subList(0, n);
        for (final Map.Entry<String, double[]> t : r.nodeTests().entrySet()) {
            if (t.getKey().endsWith("sendrecv") || t.getKey().endsWith("pass 1")) {
                final List<Double> v = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    v.add(Double.isFinite(t.getValue()[i]) ? t.getValue()[i] : 0.0);
                }
                chart.addSeries(t.getKey(), names, v);
            }
        }
        if (chart.getSeriesMap().isEmpty()) {
            chart.addSeries("no figures", List.of("-"), List.of(0.0));
        }
        return chart;
    }

    private static void html(final Writer h, final DiagnosisRecord r, final List<Path> plots,
                             final List<String> captions) throws IOException {
        final String title = "cctk diagnosis " + cctk.Printable.of(String.valueOf(r.doc().get("job")));
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>").append(esc(title))
                .append("</title>\n<style>body{font-family:sans-serif;margin:2em;color:#222}pre{background:#f6f6f6;")
                .append("padding:1em}img{max-width:100%;border:1px solid #ddd}table{border-collapse:collapse}")
                .append("th,td{border:1px solid #ccc;padding:2px 6px}th{background:#eee}.SUSPECT{color:#b00;")
                .append("font-weight:bold}</style>\n</head>\n<body>\n<h1>").append(esc(title)).append("</h1>\n<pre>");
        for (final String line : r.verdict()) {
            h.append(esc(line)).append('\n');
        }
        h.append("</pre>\n<h2>Suspects</h2>\n<table>\n<tr><th>kind</th><th>suspect</th><th>confirmed</th>")
                .append("<th>evidence</th><th>figure</th><th>peers' median</th><th>ratio</th><th>agree</th>")
                .append("<th>repeat</th></tr>\n");
        for (final Object o : r.doc().get("suspects") instanceof List<?> l ? l : List.of()) {
            final Map<?, ?> s = (Map<?, ?>) o;
            for (final Object eo : s.get("evidence") instanceof List<?> l ? l : List.of()) {
                final Map<?, ?> e = (Map<?, ?>) eo;
                final boolean yes = Boolean.TRUE.equals(s.get("confirmed"));
                h.append("<tr><td>").append(cell(s.get("kind"))).append("</td><td")
                        .append(yes ? " class=\"SUSPECT\"" : "").append('>').append(cell(s.get("subject")))
                        .append("</td><td>").append(yes ? "yes" : "no").append("</td><td>").append(cell(e.get("test")))
                        .append("</td><td>").append(cell(e.get("figure"))).append("</td><td>")
                        .append(cell(e.get("peers_median"))).append("</td><td>").append(cell(e.get("ratio")))
                        .append("</td><td>").append(cell(e.get("agree"))).append(" of ").append(cell(e.get("of")))
                        .append("</td><td>").append(cell(e.get("repeat"))).append("</td></tr>\n");
            }
        }
        h.append("</table>\n<h2>Plots</h2>\n");
        for (int i = 0; i < plots.size(); i++) {
            h.append("<figure><img alt=\"").append(esc(captions.get(i))).append("\" src=\"data:image/png;base64,")
                    .append(Base64.getEncoder().encodeToString(Files.readAllBytes(plots.get(i))))
                    .append("\"><figcaption>").append(esc(captions.get(i))).append("</figcaption></figure>\n");
        }
        h.append("</body>\n</html>\n");
    }

    private static void save(final Chart<?, ?> chart, final Path file) throws IOException {
        OwnerFiles.bytes(file, BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG));
    }

    private static String cut(final DiagnosisRecord r) {
        return r.nodes().size() > MAX_NODES ? " (the first " + MAX_NODES + " of " + r.nodes().size() + " nodes)" : "";
    }

    private static String plain(final String mode) {
        return mode.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private static String cell(final Object v) {
        return v == null ? "" : esc(cctk.Printable.of(String.valueOf(v)));
    }

    private static String esc(final String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
