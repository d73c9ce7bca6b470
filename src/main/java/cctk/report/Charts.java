package cctk.report;

import cctk.results.Numbers;
import cctk.results.Result;
import cctk.results.Run;
import java.awt.Color;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The report's charts as XChart models, before they are drawn: a line chart of a value against message size (one
 * line per run and operator, the run's colour and marker, the operator's dash) and a bar chart of every run at the
 * measured size nearest to one size. Tests read the models (series, their colours, the axes' tick labels).
 * <b>Note:</b> threadsafe (no state).
 */
final class Charts {

    /** Plot size in pixels: wide enough for a legend beside the plot. */
    static final int WIDTH = 1100;
    static final int HEIGHT = 650;
    /** The name of the invisible series that holds the size axis's steps (never shown in the legend). */
    static final String STEPS = "\u0000steps";
    /** About the width of the plot area in pixels, to ask the chart for a tick per step of the size axis. */
    private static final int PLOT_WIDTH = 720;

    private Charts() {
    }

    /**
     * A value against message size: sizes on {@link Axes#sizes}' scale, a time on {@link Axes#values}' scale, a
     * {@code bandwidth} on {@link Axes#linear}'s; one line per series, named after its run (and its operator when
     * the chart shows more than one).
     */
    static XYChart line(final String title, final String yTitle, final List<Series> lines,
                        final ToDoubleFunction<Result> y, final boolean bandwidth, final Palette palette) {
        final List<Long> sizes = new ArrayList<>();
        final List<Double> values = new ArrayList<>();
        for (final Series s : lines) {
            for (final Result r : s.points()) {
                final double v = y.applyAsDouble(r);
                if (Double.isFinite(v) && v > 0 && r.sizeBytes() > 0) {
                    sizes.add(r.sizeBytes());
                    values.add(v);
                }
            }
        }
        final Axes.SizeScale sx = Axes.sizes(sizes.isEmpty() ? List.of(1L) : sizes);
        final Axes.ValueScale vy = bandwidth ? Axes.linear(values) : Axes.values(values);
        final AskedElements asked = AskedElements.of(lines);
        final XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
            .xAxisTitle("message size (log scale, " + sx.units() + (asked == null ? "" : "; in brackets the "
                + asked.dtype() + " elements asked for") + ")")
            .yAxisTitle(yTitle + (vy.log() ? ", log scale" : "")).build();
        style(c.getStyler());
        final java.util.function.Function<Double, String> label = asked == null ? sx::label : x -> asked.label(sx, x);
        c.getStyler().setxAxisTickLabelsFormattingFunction(label);
        c.getStyler().setXAxisMin((double) sx.lo());
        c.getStyler().setXAxisMax((double) sx.hi());
        // a tick per step where the labels fit, fewer where they would overprint
        c.getStyler().setXAxisTickMarkSpacingHint(Math.max(ChartText.spacing(sx.steps().stream().map(label)
            .toList()), PLOT_WIDTH / (sx.hi() - sx.lo())));
        c.getStyler().setYAxisDecimalPattern("#,##0.##########");
        c.getStyler().setMarkerSize(7);
        if (vy.log()) {
            c.getStyler().setYAxisLogarithmic(true);
            if (!Double.isNaN(vy.min())) {
                c.getStyler().setYAxisMin(vy.min());
                c.getStyler().setYAxisMax(vy.max());
            }
        } else if (!Double.isNaN(vy.max())) {
            // a linear axis from 0 to a round number: several labelled ticks even for one value
            c.getStyler().setYAxisMin(vy.min());
            c.getStyler().setYAxisMax(vy.max());
        }
        final List<String> ops = lines.stream().map(Series::op).distinct().toList();
        final Set<String> taken = new HashSet<>();
        for (final Series s : lines) {
            final List<Double> xs = new ArrayList<>();
            final List<Double> ys = new ArrayList<>();
            for (final Result r : s.points()) {
                final double v = y.applyAsDouble(r);
                if (Double.isFinite(v) && v > 0 && r.sizeBytes() > 0) {
                    xs.add(sx.x(r.sizeBytes()));
                    ys.add(v);
                }
            }
            if (!xs.isEmpty()) {
                final XYSeries xy = c.addSeries(unique(lineName(s, ops), taken), xs, ys);
                final int op = ops.indexOf(s.op());
                xy.setLineColor(palette.color(s.run()));
                xy.setMarkerColor(palette.color(s.run()));
                xy.setMarker(palette.marker(s.run()));
                xy.setLineStyle(Palette.stroke(op));
            }
        }
        if (!values.isEmpty()) {
            // the size axis's whole steps as invisible points: the chart then puts its ticks on them
            final List<Double> steps = sx.steps();
            final XYSeries hidden = c.addSeries(STEPS, steps, steps.stream().map(s -> values.get(0)).toList());
            hidden.setShowInLegend(false);
            hidden.setMarker(SeriesMarkers.NONE);
            hidden.setLineStyle(SeriesLines.NONE);
        }
        return c;
    }

    /** The legend name of a line: the run's name, and its operator when the chart shows more than one. */
    static String lineName(final Series s, final List<String> ops) {
        return ops.size() > 1 && s.op() != null ? s.name() + " " + s.op() : s.name();
    }

    /**
     * Busbw of every series at its measured size nearest to {@code atBytes}: one group of bars per collective
     * (and type and operator when {@code kinds}) and measured size, so each bar stands under the size it was measured
     * at; one bar colour per run; a run that did not measure a group has no bar there (never a bar of 0).
     */
    static CategoryChart bars(final String title, final List<Series> all, final long atBytes, final boolean kinds,
                              final Palette palette, final java.util.function.Function<Run, String> names) {
        final List<String> collectives = Series.collectives(all);
        final NominalSizes nominal = new NominalSizes(all.stream().map(s -> s.nearest(atBytes))
            .filter(Objects::nonNull).map(Result::sizeBytes).toList());
        // one group per collective (and kind) and nominal size; its label shows "~" when its sizes differ
        final Map<String, Group> groups = new LinkedHashMap<>();
        final Map<Series, Group> of = new java.util.IdentityHashMap<>();
        for (final Series s : all) {
            final Result r = s.nearest(atBytes);
            if (r != null && Double.isFinite(r.busBw())) {
                final String name = s.collective() + (kinds && !s.kind().isEmpty() ? " " + s.kind() : "");
                final long size = nominal.of(r.sizeBytes());
                final Group g = groups.computeIfAbsent(name + "\u0000" + size, k -> new Group(name,
                    collectives.indexOf(s.collective()), size, new java.util.TreeSet<>()));
                g.exact().add(r.sizeBytes());
                of.put(s, g);
            }
        }
        final List<Group> ordered = groups.values().stream().sorted(Comparator.comparingInt(Group::index)
            .thenComparingLong(Group::size)).toList();
        // one size for every group: it goes once into the axis title, not under every group
        final boolean oneSize = ordered.stream().map(Group::size).distinct().count() == 1
            && ordered.stream().allMatch(g -> g.exact().size() == 1);
        final List<String> categories = ordered.stream().map(g -> oneSize ? g.name() : g.label()).toList();
        final CategoryChart c = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
            .xAxisTitle(oneSize ? "collective (every bar measured at " + Numbers.size(ordered.get(0).size()) + ")"
                : "collective @ the size its bars were measured at (no bar: not measured)")
            .yAxisTitle("busbw (GB/s, 1e9 B/s)").build();
        style(c.getStyler());
        c.getStyler().setYAxisDecimalPattern("#,##0.##");
        c.getStyler().setLabelsFont(ChartText.BAR_LABELS);
        c.getStyler().setLabelsRotation(90);
        c.getStyler().setYAxisMin(0.0);
        final Map<Run, Map<Group, Double>> byRun = new LinkedHashMap<>();
        of.forEach((s, g) -> byRun.computeIfAbsent(s.run(), k -> new java.util.IdentityHashMap<>())
            .putIfAbsent(g, s.nearest(atBytes).busBw()));
        // the top tick a round number above the tallest bar, so that it is labelled
        byRun.values().stream().flatMap(m -> m.values().stream()).filter(v -> Double.isFinite(v) && v > 0)
            .mapToDouble(v -> v).max().ifPresent(top -> c.getStyler().setYAxisMax(Axes.niceAbove(top)));
        final Set<String> taken = new HashSet<>();
        for (final Run run : all.stream().map(Series::run).distinct().toList()) {
            final Map<Group, Double> values = byRun.get(run);
            if (values != null) {
                final List<Double> ys = ordered.stream().map(values::get).toList();
                c.addSeries(unique(names.apply(run), taken), categories, ys).setFillColor(palette.color(run));
            }
        }
        // the plot's width: the chart less the value axis and the legend beside it
        final double plot = WIDTH - 110 - ChartText.widest(c.getSeriesMap().keySet(), ChartText.LEGEND) - 60;
        final double perGroup = plot / Math.max(1, categories.size());
        c.getStyler().setXAxisLabelRotation(ChartText.rotation(categories, perGroup));
        // figures on the bars only where a bar is wide enough to hold one
        c.getStyler().setLabelsVisible(ChartText.fitsOnBars(perGroup * c.getStyler().getAvailableSpaceFill()
            / Math.max(1, c.getSeriesMap().size())));
        return c;
    }

    /** A group of bars: a collective (and kind) at one nominal size, and the exact sizes measured in it. */
    private record Group(String name, int index, long size, Set<Long> exact) {
        String label() {
            return name + " @ " + (exact.size() > 1 ? "~" : "") + Numbers.size(size);
        }
    }

    /** The groups of a bar chart, for captions: {@code all_reduce @ 100 MB}. */
    static List<String> groups(final CategoryChart c) {
        final Set<String> out = new LinkedHashSet<>();
        c.getSeriesMap().values().forEach(s -> s.getXData().forEach(x -> out.add(Objects.toString(x))));
        return List.copyOf(out);
    }

    /** {@code name}, or {@code name (2)}, ... when a series of the chart already has it. */
    private static String unique(final String name, final Set<String> taken) {
        String n = name;
        for (int i = 2; !taken.add(n); i++) {
            n = name + " (" + i + ")";
        }
        return n;
    }

    private static void style(final Styler st) {
        st.setChartBackgroundColor(Color.WHITE);
        st.setPlotBackgroundColor(Color.WHITE);
        st.setLegendPosition(Styler.LegendPosition.OutsideE);
        st.setChartTitleFont(ChartText.TITLE);
        st.setLegendFont(ChartText.LEGEND);
        st.setAntiAlias(true);
        if (st instanceof AxesChartStyler a) {
            a.setAxisTitleFont(ChartText.AXIS_TITLES);
            a.setAxisTickLabelsFont(ChartText.TICKS);
            a.setPlotGridLinesColor(new Color(0xdddddd));
        }
    }
}
