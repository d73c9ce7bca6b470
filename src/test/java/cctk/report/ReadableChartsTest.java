package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.AxesChartStyler;

/**
 * Charts that can be read: the busbw plateau of two nccl-tests-like runs 12 % apart on a linear axis whose top tick
 * is labelled, their time on a log axis whose top decade is labelled; a comparison of 8 collectives whose category
 * labels, bar figures and title do not overprint or claim an operator a collective lacks; tick labels that stay
 * readable when the page shows a chart 900 px wide. Read from XChart's model, never from pixels.
 */
@Timeout(120)
class ReadableChartsTest {

    private static final List<String> EIGHT = List.of("all_reduce", "all_gather", "reduce_scatter", "broadcast",
        "reduce", "alltoall", "alltoallv", "sendrecv");

    /** Two runs of 8 ranks, 8 B .. 8 GiB, 20 us latency, plateaus of 366 and 322 GB/s. */
    static ResultSet plateaus() {
        final List<Result> rs = new ArrayList<>();
        final double[] peaks = {366, 322};
        for (int i = 0; i < 2; i++) {
            final Run r = PlotsTest.run("nccl", 8, "2026-11-2" + (i + 4) + "T10:00:00");
            for (long s = 8; s <= 8L << 30; s *= 2) {
                final double t = 20e-6 + s / (peaks[i] * 1e9 / 1.75);
                rs.add(PlotsTest.at(r, "all_reduce", "float32", "sum", s, s / t / 1e9 * 1.75, false));
            }
        }
        return new ResultSet(rs, List.of());
    }

    /** {@code runs} runs measuring the 8 collectives at 1, 16 and 64 MiB. */
    static ResultSet eight(final int runs) {
        final List<Result> rs = new ArrayList<>();
        for (int w = 2; w < 2 + runs; w++) {
            final Run r = PlotsTest.run("tcp", w, "2026-11-24T17:35:0" + w);
            for (final String c : EIGHT) {
                for (final long s : new long[] {1 << 20, 16 << 20, 64 << 20}) {
                    rs.add(PlotsTest.at(r, c, "float32", c.contains("reduce") ? "sum" : null, s, 0.5 + w * 0.37
                        + c.length() * 0.1 + s / 1e8, false));
                }
            }
        }
        return new ResultSet(rs, List.of());
    }

    private static double number(final String label) {
        return Double.parseDouble(label.replace(",", ""));
    }

    @Test
    void theBusbwPlateauIsDrawnOnALinearAxisWithItsTopTickLabelled() {
        final List<Plots.Planned> plots = Plots.plan(plateaus(), 1L << 30);
        final XYChart bw = (XYChart) PlotsTest.named(plots, "all_reduce_busbw_vs_size").chart();
        // old: a log axis 0.001 .. 100 with both plateaus in the unlabelled decade above 100
        assertThat(bw.getStyler().isYAxisLogarithmic()).isFalse();
        final List<String> labels = ChartModel.yLabels(bw);
        final double top = number(labels.get(labels.size() - 1));
        assertThat(top).isGreaterThanOrEqualTo(366).isEqualTo(bw.getStyler().getYAxisMax());
        // the 44 GB/s between the plateaus is at least a tenth of the axis
        assertThat((366 - 322) / top).isGreaterThan(0.1);
        assertThat(ChartModel.xCollisions(bw)).isEmpty();
        // the time per call keeps its log axis, its top decade labelled above the slowest call
        final XYChart time = (XYChart) PlotsTest.named(plots, "all_reduce_time_vs_size").chart();
        assertThat(time.getStyler().isYAxisLogarithmic()).isTrue();
        final List<String> t = ChartModel.yLabels(time);
        final double slowest = time.getSeriesMap().values().stream().flatMapToDouble(s -> java.util.Arrays.stream(
            s.getYData())).max().orElseThrow();
        assertThat(number(t.get(t.size() - 1))).isGreaterThanOrEqualTo(slowest);
        assertThat(ChartModel.xCollisions(time)).isEmpty();
    }

    @Test
    void eightCollectivesGetLabelsThatDoNotOverprintAndNoOperatorTheyLack() {
        final Plots.Planned p = Plots.plan(eight(3), 64L << 20).stream().filter(x -> x.chart()
            instanceof CategoryChart).findFirst().orElseThrow();
        final CategoryChart c = (CategoryChart) p.chart();
        // old: "reduce_scatter @ 64 MiB" and "broadcast @ 64 MiB" overprinted at 20 degrees
        assertThat(ChartModel.xCollisions(c)).isEmpty();
        assertThat(ChartModel.xLabels(c)).containsExactlyElementsOf(EIGHT);
        assertThat(c.getXAxisTitle()).contains("every bar measured at 64 MiB");
        // old: "(float32 sum)" over all_gather, broadcast, alltoall ...
        assertThat(c.getTitle()).contains("(float32; sum for the reductions)").doesNotContain("float32 sum");
        assertThat(p.caption()).contains("float32; sum for the reductions");
        assertThat(c.getStyler().isLabelsVisible()).isTrue();
    }

    @Test
    void barsTooThinForTheirFiguresCarryNone() {
        final CategoryChart c = (CategoryChart) Plots.plan(eight(9), 64L << 20).stream().filter(x -> x.chart()
            instanceof CategoryChart).findFirst().orElseThrow().chart();
        final List<ChartModel.Tick> ticks = ChartModel.ticks(c, "getXAxis");
        final double bar = (ticks.get(1).at() - ticks.get(0).at()) * c.getStyler().getAvailableSpaceFill() / 9;
        // old: a figure on every bar, each wider than its bar, overprinting its neighbours
        assertThat(bar).isLessThan(ChartText.height(ChartText.BAR_LABELS));
        assertThat(c.getStyler().isLabelsVisible()).isFalse();
        assertThat(ChartModel.xCollisions(c)).isEmpty();
        // the tallest bar, 6.27 GB/s (W = 10, reduce_scatter), under a labelled top tick close above it
        assertThat(ChartModel.yLabels(c)).last().isEqualTo("8");
    }

    @Test
    void tickLabelsStayReadableOnA900PixelPage() {
        final List<Plots.Planned> plots = new ArrayList<>(Plots.plan(plateaus(), 1L << 30));
        plots.addAll(Plots.plan(eight(3), 64L << 20));
        for (final Plots.Planned p : plots) {
            final AxesChartStyler st = (AxesChartStyler) p.chart().getStyler();
            // old: 12 pt on a 1100 px chart, 9.8 px when the page shows it 900 px wide
            assertThat(st.getAxisTickLabelsFont().getSize2D() * 900 / p.chart().getWidth()).as(p.stem())
                .isGreaterThanOrEqualTo(12);
        }
    }

    @Test
    void noChartOfTheseSweepsOverprintsItsSizeLabels() {
        final Run r = PlotsTest.run("tcp", 2, "2026-11-24T17:50:22");
        final List<Result> sweep = new ArrayList<>();
        for (long s = 4; s <= 1L << 30; s *= 4) {
            sweep.add(PlotsTest.at(r, "all_reduce", "float32", "sum", s, 1 + s / 1e8, false));
        }
        final List<Result> decimal = new ArrayList<>();
        for (long s = 1000; s <= 1_000_000_000; s *= 2) {
            decimal.add(PlotsTest.at(r, "all_reduce", "float32", "sum", s, 1 + s / 1e8, false));
        }
        for (final ResultSet set : List.of(plateaus(), eight(3), PlotsTest.seeds("all_reduce", "all_gather"),
            new ResultSet(sweep, List.of()), new ResultSet(decimal, List.of()))) {
            for (final Plots.Planned p : Plots.plan(set, 100_000_000L)) {
                assertThat(ChartModel.xCollisions(p.chart())).as(p.stem()).isEmpty();
            }
        }
    }
}
