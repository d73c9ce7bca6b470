package org.knowm.xchart.internal.chartpart;

/**
 * Test-only, for cctk's ChartModel: the y axis XChart laid out for a chart. XChart 3.8.8 has no public getter for
 * it (its x axis is public through {@link AxisPair#getXAxis}); this class reaches {@code Chart.getYAxis()} from
 * XChart's own package, with no reflection, so a change to XChart fails the test compilation, not a test run.
 */
public final class LaidOutYAxis {

    private LaidOutYAxis() {
    }

    /** The chart's first y axis, as its last paint laid it out. */
    public static Axis<?, ?> of(final Chart<?, ?> chart) {
        return chart.getYAxis();
    }
}
