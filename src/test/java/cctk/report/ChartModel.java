package cctk.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Axis;
import org.knowm.xchart.internal.chartpart.AxisPair;
import org.knowm.xchart.internal.chartpart.AxisTickCalculator;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.internal.chartpart.LaidOutYAxis;

/**
 * What a chart shows, read from XChart's model after it laid the chart out (never from pixels): the labels of the
 * ticks it draws inside the plot on each axis, and its visible series with their colours and lines.
 */
final class ChartModel {

    private ChartModel() {
    }

    /** A visible series: legend name, colour, line. */
    record Line(String name, Color color, BasicStroke stroke) {
    }

    /** The labels XChart draws on the x axis (ticks inside the plot area), in order. */
    static List<String> xLabels(final Chart<?, ?> chart) {
        return labels(chart, "getXAxis");
    }

    /** The labels XChart draws on the y axis (a log axis leaves its minor ticks unlabelled: those are left out). */
    static List<String> yLabels(final Chart<?, ?> chart) {
        return labels(chart, "getYAxis");
    }

    /** The series shown in the legend, in order. */
    static List<Line> lines(final org.knowm.xchart.XYChart chart) {
        final List<Line> out = new ArrayList<>();
        chart.getSeriesMap().values().stream().filter(s -> s.isShowInLegend())
            .forEach(s -> out.add(new Line(s.getName(), s.getLineColor(), s.getLineStyle())));
        return out;
    }

    /** A drawn tick label and where along its axis it is drawn (pixels from the axis's start). */
    record Tick(String label, double at) {
    }

    private static List<String> labels(final Chart<?, ?> chart, final String axis) {
        return ticks(chart, axis).stream().map(Tick::label).toList();
    }

    /**
     * The labelled ticks XChart draws inside the plot on {@code axis} ("getXAxis" or "getYAxis"), in order, through
     * XChart's API after it laid the chart out: the x axis from an axis pair of the chart's, laid out again
     * ({@link AxisPair#getXAxis}, public); the y axis, which XChart keeps package-private, from
     * {@link LaidOutYAxis}.
     */
    static List<Tick> ticks(final Chart<?, ?> chart, final String axis) {
        final BufferedImage image = BitmapEncoder.getBufferedImage(chart);
        if (axis.equals("getXAxis")) {
            @SuppressWarnings({"rawtypes", "unchecked"})
            final AxisPair<?, ?> pair = new AxisPair(chart);
            final Graphics2D g = image.createGraphics();
            try {
                pair.paint(g);
            } finally {
                g.dispose();
            }
            final Axis<?, ?> x = pair.getXAxis();
            return inside(x.getAxisTickCalculator(), x.getBounds().getWidth());
        }
        final Axis<?, ?> y = LaidOutYAxis.of(chart);
        return inside(y.getAxisTickCalculator(), y.getBounds().getHeight());
    }

    /** The labelled ticks of {@code calc} within an axis {@code extent} pixels long. */
    private static List<Tick> inside(final AxisTickCalculator calc, final double extent) {
        final List<Tick> out = new ArrayList<>();
        for (int i = 0; i < calc.getTickLabels().size(); i++) {
            final double at = calc.getTickLocations().get(i);
            final String label = calc.getTickLabels().get(i);
            if (label != null && at >= -0.5 && at <= extent + 0.5) {
                out.add(new Tick(Objects.toString(label), at));
            }
        }
        return out;
    }

    /**
     * The neighbouring tick labels of the x axis that the chart draws over each other, in its tick font and at its
     * label rotation: unrotated labels collide when their half widths reach past the distance between their ticks;
     * rotated ones (parallel strips of the font's height) when that distance across the strips is below the height.
     */
    static List<String> xCollisions(final Chart<?, ?> chart) {
        final org.knowm.xchart.style.AxesChartStyler st = (org.knowm.xchart.style.AxesChartStyler) chart.getStyler();
        final java.awt.Font font = st.getAxisTickLabelsFont();
        final java.awt.font.FontRenderContext frc = new java.awt.font.FontRenderContext(null, true, true);
        final double angle = Math.toRadians(st.getXAxisLabelRotation());
        final List<Tick> ticks = ticks(chart, "getXAxis");
        final List<String> out = new ArrayList<>();
        for (int i = 1; i < ticks.size(); i++) {
            final Tick a = ticks.get(i - 1);
            final Tick b = ticks.get(i);
            final double gap = Math.abs(b.at() - a.at());
            final double wa = font.getStringBounds(a.label(), frc).getWidth();
            final double wb = font.getStringBounds(b.label(), frc).getWidth();
            final double h = font.getLineMetrics(a.label(), frc).getAscent();
            final boolean collide = angle == 0 ? gap < (wa + wb) / 2 + 2 : gap * Math.sin(angle) < h;
            if (collide) {
                out.add(a.label() + " | " + b.label());
            }
        }
        return out;
    }
}
