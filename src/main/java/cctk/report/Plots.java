package cctk.report;

import cctk.OwnerFiles;
import cctk.results.Numbers;
import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The report's PNG plots, rendered headless by XChart: per collective, time and busbw against message size on
 * log axes with one line per run (backend × world size), and a bar chart of every run at one size.
 */
public final class Plots {

    /** Plot size in pixels: wide enough for a legend beside the plot. */
    public static final int WIDTH = 1100;
    public static final int HEIGHT = 650;
    /** The most runs (lines or bars) one plot shows. */
    public static final int MAX_LINES = 24;
    /** The most collectives plotted. */
    public static final int MAX_COLLECTIVES = 32;
    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
        new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf)};

    /** One written plot: its file name and what it shows. */
    public record Plot(Path file, String caption) {
    }

    private Plots() {
    }

    /**
     * Writes every plot into {@code dir}; returns them in the order written. File names are made from the
     * collectives' names by {@link FileNames}: never a path. At most {@link #MAX_COLLECTIVES} collectives are
     * plotted, each with at most {@link #MAX_LINES} runs (the first in the report's order), as a plot of more
     * cannot be read; the captions say so.
     */
    public static List<Plot> write(final ResultSet set, final long atBytes, final Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        final List<Series> all = Series.of(set).stream().filter(Series::carriesData).toList();
        final List<Plot> out = new ArrayList<>();
        final FileNames names = new FileNames();
        final Map<String, List<Series>> byColl = new LinkedHashMap<>();
        all.forEach(s -> byColl.computeIfAbsent(s.collective(), k -> new ArrayList<>()).add(s));
        int plotted = 0;
        for (final Map.Entry<String, List<Series>> e : byColl.entrySet()) {
            if (plotted++ == MAX_COLLECTIVES) {
                break;
            }
            final String coll = e.getKey();
            final List<Series> lines = e.getValue().subList(0, Math.min(MAX_LINES, e.getValue().size()));
            final String left = e.getValue().size() > MAX_LINES ? " (the first " + MAX_LINES + " of "
                + e.getValue().size() + " runs)" : "";
            final String what = coll + " " + typeAndOp(lines.get(0));
            out.add(save(lineChart(what + ": time per call vs message size" + where(lines), "time per call (us)",
                lines, Result::timeUs), dir.resolve(names.name(coll + "_time_vs_size", ".png")),
                coll + ": time per call against message size" + left));
            out.add(save(lineChart(what + ": bus bandwidth vs message size" + where(lines), "busbw (GB/s, 1e9 B/s)",
                lines, Result::busBw), dir.resolve(names.name(coll + "_busbw_vs_size", ".png")),
                coll + ": bus bandwidth against message size" + left));
        }
        if (!all.isEmpty()) {
            final String size = Numbers.size(atBytes);
            final List<Series> bars = new ArrayList<>();
            byColl.values().stream().limit(MAX_COLLECTIVES)
                .forEach(l -> bars.addAll(l.subList(0, Math.min(MAX_LINES, l.size()))));
            out.add(save(barChart(bars, atBytes, "Bus bandwidth at " + measuredAt(bars, atBytes) + where(bars)),
                dir.resolve(names.name("comparison_at_" + size.replace(" ", ""), ".png")),
                "bus bandwidth of every run and collective at " + size + (bars.size() < all.size()
                ? " (the first " + MAX_LINES + " runs of the first " + MAX_COLLECTIVES + " collectives)" : "")));
        }
        return out;
    }

    private static XYChart lineChart(final String title, final String yTitle, final List<Series> lines,
                                     final ToDoubleFunction<Result> y) {
        final XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
            .xAxisTitle("message size (log scale, binary units: 1 MiB = 2^20 B)").yAxisTitle(yTitle).build();
        style(c.getStyler());
        // x is log2(bytes) on a linear axis, so that ticks fall on powers of two and read as KiB/MiB/GiB
        c.getStyler().setxAxisTickLabelsFormattingFunction(Plots::sizeLabel);
        c.getStyler().setYAxisDecimalPattern("#,##0.#####");
        c.getStyler().setMarkerSize(7);
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (final Series s : lines) {
            for (final Result r : s.points()) {
                final double v = y.applyAsDouble(r);
                if (Double.isFinite(v) && v > 0) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
        }
        // a log y axis only pays when the values span a decade; within one it shows a single tick label
        c.getStyler().setYAxisLogarithmic(hi / lo >= 10);
        c.setYAxisTitle(yTitle + (hi / lo >= 10 ? ", log scale" : ""));
        for (final Series s : lines) {
            final List<Double> xs = new ArrayList<>();
            final List<Double> ys = new ArrayList<>();
            for (final Result r : s.points()) {
                final double v = y.applyAsDouble(r);
                if (Double.isFinite(v) && v > 0 && r.sizeBytes() > 0) {
                    xs.add(Math.log(r.sizeBytes()) / Math.log(2));
                    ys.add(v);
                }
            }
            if (!xs.isEmpty()) {
                final org.knowm.xchart.XYSeries xy = c.addSeries(s.name(), xs, ys);
                xy.setMarker(SeriesMarkers.CIRCLE);
                xy.setLineStyle(new BasicStroke(2.2f));
            }
        }
        return c;
    }

    private static CategoryChart barChart(final List<Series> all, final long atBytes, final String title) {
        final CategoryChart c = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
            .xAxisTitle("collective (one bar per run: backend x world size)").yAxisTitle("busbw (GB/s, 1e9 B/s)")
            .build();
        style(c.getStyler());
        c.getStyler().setYAxisDecimalPattern("#,##0.##");
        c.getStyler().setLabelsVisible(true);
        c.getStyler().setLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        c.getStyler().setLabelsRotation(90);
        c.getStyler().setYAxisMin(0.0);
        final List<String> colls = Series.collectives(all);
        final Set<String> names = new LinkedHashSet<>();
        all.forEach(s -> names.add(s.name()));
        for (final String name : names) {
            final List<Double> ys = new ArrayList<>();
            for (final String coll : colls) {
                final Result r = all.stream().filter(s -> s.name().equals(name) && s.collective().equals(coll))
                    .map(s -> s.nearest(atBytes)).findFirst().orElse(null);
                ys.add(r == null || !Double.isFinite(r.busBw()) ? 0.0 : r.busBw());
            }
            c.addSeries(name, colls, ys);
        }
        return c;
    }

    private static void style(final Styler st) {
        st.setChartBackgroundColor(Color.WHITE);
        st.setPlotBackgroundColor(Color.WHITE);
        st.setSeriesColors(COLORS);
        st.setLegendPosition(Styler.LegendPosition.OutsideE);
        st.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        st.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        st.setAntiAlias(true);
        if (st instanceof org.knowm.xchart.style.AxesChartStyler a) {
            a.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
            a.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            a.setPlotGridLinesColor(new Color(0xdddddd));
        }
    }

    private static Plot save(final org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, final Path file,
                             final String caption) throws IOException {
        try {
            OwnerFiles.bytes(file, BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG));
        } catch (final IOException e) {
            throw ReportWriter.named(file, e);
        }
        return new Plot(file, caption);
    }

    /**
     * The label of a tick at x = log2(bytes), never empty (an empty label stops the chart library): {@code 64 KiB}
     * on whole powers of two, the size the tick stands for between them (a sweep of one size that is no power of
     * two has only such ticks), {@code 2^x} outside 1 B .. 2^62 B.
     */
    public static String sizeLabel(final double log2) {
        if (!(log2 >= 0 && log2 <= 62)) {
            return "2^" + Numbers.fit(log2, 8).trim();
        }
        if (Math.abs(log2 - Math.rint(log2)) <= 1e-9) {
            return Numbers.size(1L << (long) Math.rint(log2));
        }
        return Numbers.size(Math.round(Math.pow(2, log2)));
    }

    /** "100 MiB", or the measured size nearest to it when that is another. */
    private static String measuredAt(final List<Series> all, final long atBytes) {
        final java.util.TreeSet<Long> sizes = new java.util.TreeSet<>();
        all.forEach(s -> sizes.add(s.nearest(atBytes).sizeBytes()));
        if (sizes.size() == 1 && sizes.first() == atBytes) {
            return Numbers.size(atBytes);
        }
        final String measured = sizes.size() == 1 ? Numbers.size(sizes.first())
            : Numbers.size(sizes.first()) + " - " + Numbers.size(sizes.last());
        return measured + ", nearest measured to " + Numbers.size(atBytes);
    }

    /** " (cluster: hosts)" from the runs' clusters and hosts, shortened to stay on one title line. */
    private static String where(final List<Series> lines) {
        final Map<String, Set<String>> byCluster = new LinkedHashMap<>();
        for (final Series s : lines) {
            final Run r = s.run();
            byCluster.computeIfAbsent(r.cluster() == null ? "" : r.cluster(), k -> new LinkedHashSet<>())
                .addAll(r.hosts());
        }
        final List<String> places = new ArrayList<>();
        byCluster.forEach((cluster, hosts) -> {
            final String h = String.join(", ", hosts);
            final String p = cluster.isEmpty() ? h : h.isEmpty() ? cluster : cluster + ": " + h;
            if (!p.isEmpty()) {
                places.add(p);
            }
        });
        if (places.isEmpty()) {
            return "";
        }
        String w = String.join("; ", places);
        if (w.length() > 50) {
            w = w.substring(0, 47) + "...";
        }
        return " (" + w + ")";
    }

    private static String typeAndOp(final Series s) {
        return (s.dtype() == null ? "" : s.dtype()) + (s.op() == null ? "" : " " + s.op());
    }
}
