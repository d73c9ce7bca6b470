package cctk.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.AxisTickCalculator;
import org.knowm.xchart.internal.chartpart.Chart;

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

    private static List<String> labels(final Chart<?, ?> chart, final String axis) {
        try {
            BitmapEncoder.getBufferedImage(chart);
            final Field pair = Chart.class.getDeclaredField("axisPair");
            pair.setAccessible(true);
            final Object p = pair.get(chart);
            final Method get = p.getClass().getDeclaredMethod(axis);
            get.setAccessible(true);
            final Object a = get.invoke(p);
            final AxisTickCalculator calc = (AxisTickCalculator) a.getClass().getMethod("getAxisTickCalculator")
                .invoke(a);
            final Method bounds = a.getClass().getMethod("getBounds");
            final java.awt.geom.Rectangle2D b = (java.awt.geom.Rectangle2D) bounds.invoke(a);
            final double extent = axis.equals("getXAxis") ? b.getWidth() : b.getHeight();
            final List<String> out = new ArrayList<>();
            for (int i = 0; i < calc.getTickLabels().size(); i++) {
                final double at = calc.getTickLocations().get(i);
                final String label = calc.getTickLabels().get(i);
                if (label != null && at >= -0.5 && at <= extent + 0.5) {
                    out.add(Objects.toString(label));
                }
            }
            return out;
        } catch (final ReflectiveOperationException e) {
            throw new IllegalStateException("XChart's model changed: " + e, e);
        }
    }
}
