package cctk.report;

import java.awt.Font;
import java.awt.font.FontRenderContext;
import java.util.Collection;

/**
 * The text of the report's charts: its fonts, sized so that a chart shown scaled down to 900 px wide (a report page
 * beside its table of contents) still draws tick labels at least 12 px high, and the measures that keep labels apart
 * (how wide a text is, and at which rotation a row of category labels no longer overprints).
 * <b>Note:</b> threadsafe (immutable).
 */
final class ChartText {

    /** The tick labels' font. */
    static final Font TICKS = new Font(Font.SANS_SERIF, Font.PLAIN, 15);
    /** The axis titles' font. */
    static final Font AXIS_TITLES = new Font(Font.SANS_SERIF, Font.PLAIN, 15);
    /** The legend's font. */
    static final Font LEGEND = new Font(Font.SANS_SERIF, Font.PLAIN, 14);
    /** The chart title's font. */
    static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 16);
    /** The font of the figures written on bars. */
    static final Font BAR_LABELS = new Font(Font.SANS_SERIF, Font.PLAIN, 13);

    private static final FontRenderContext FRC = new FontRenderContext(null, true, true);
    /** Pixels kept free between neighbouring labels. */
    private static final int GAP = 6;

    private ChartText() {
    }

    /** How wide {@code text} is drawn in {@code font}, in pixels. */
    static double width(final String text, final Font font) {
        return font.getStringBounds(text, FRC).getWidth();
    }

    /** How high a line of {@code font} is drawn (its ascent), in pixels. */
    static double height(final Font font) {
        return font.getLineMetrics("Mg", FRC).getAscent();
    }

    /** The widest of {@code texts} in {@code font}, in pixels (0 for none). */
    static double widest(final Collection<String> texts, final Font font) {
        return texts.stream().mapToDouble(t -> width(t, font)).max().orElse(0);
    }

    /**
     * The rotation (degrees) at which labels {@code spacing} pixels apart stay apart: 0 when the widest fits
     * between its neighbours, else the smallest of 30, 45, 60 and 90 at which the rotated labels' parallel lines,
     * {@code spacing} times the angle's sine apart, clear the font's height.
     */
    static int rotation(final Collection<String> labels, final double spacing) {
        if (widest(labels, TICKS) + GAP <= spacing) {
            return 0;
        }
        for (final int angle : new int[] {30, 45, 60}) {
            if (spacing * Math.sin(Math.toRadians(angle)) >= height(TICKS) + GAP) {
                return angle;
            }
        }
        return 90;
    }

    /** The tick spacing to ask of a chart so that labels as wide as the widest of {@code labels} stay apart. */
    static int spacing(final Collection<String> labels) {
        return (int) Math.ceil(widest(labels, TICKS)) + 2 * GAP;
    }

    /** True when figures written across bars {@code barWidth} pixels wide (rotated 90 degrees) fit inside them. */
    static boolean fitsOnBars(final double barWidth) {
        return barWidth >= height(BAR_LABELS) + 2;
    }
}
