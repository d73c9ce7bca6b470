package cctk.report;

import cctk.results.ResultSet;
import cctk.results.Run;
import java.awt.BasicStroke;
import java.awt.Color;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One colour and marker per run, decided once per report in the report's run order, so a run looks the same in
 * every plot (and its legend label, {@link ResultSet#nameOf}, reads the same everywhere). Ten colours
 * (colour-blind friendly, after Matplotlib's tab10), then the next marker shape; operators other than a plot's first
 * are drawn dashed, dotted, dash-dotted.
 * <b>Note:</b> threadsafe once built.
 */
final class Palette {

    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
        new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf),
        new Color(0x7f7f7f), new Color(0xbcbd22)};
    private static final Marker[] MARKERS = {SeriesMarkers.CIRCLE, SeriesMarkers.SQUARE, SeriesMarkers.DIAMOND,
        SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN};
    private static final float WIDTH = 2.2f;
    private static final BasicStroke[] STROKES = {new BasicStroke(WIDTH),
        new BasicStroke(WIDTH, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {9f, 5f}, 0f),
        new BasicStroke(WIDTH, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {2.5f, 4f}, 0f),
        new BasicStroke(WIDTH, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {9f, 4f, 2.5f, 4f}, 0f)};
    private static final String[] STROKE_NAMES = {"solid", "dashed", "dotted", "dash-dotted"};

    private final Map<Run, Integer> index = new IdentityHashMap<>();

    private Palette(final List<Run> runs) {
        for (int i = 0; i < runs.size(); i++) {
            index.put(runs.get(i), i);
        }
    }

    /** The palette of a report, built once per result set. */
    static Palette of(final ResultSet set) {
        return set.derived(Palette.class, s -> new Palette(s.runs()));
    }

    /** The colour of {@code run}. */
    Color color(final Run run) {
        return COLORS[index.getOrDefault(run, 0) % COLORS.length];
    }

    /** The marker of {@code run}. */
    Marker marker(final Run run) {
        return MARKERS[index.getOrDefault(run, 0) / COLORS.length % MARKERS.length];
    }

    /** The line of the {@code i}-th operator of a plot. */
    static BasicStroke stroke(final int i) {
        return STROKES[i % STROKES.length];
    }

    /** What the {@code i}-th operator's line looks like, for captions. */
    static String strokeName(final int i) {
        return STROKE_NAMES[i % STROKE_NAMES.length];
    }
}
