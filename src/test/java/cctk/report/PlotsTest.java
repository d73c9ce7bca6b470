package cctk.report;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import java.awt.Color;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;

/**
 * The plots as XChart holds them: the labels it draws on each axis, the series, their colours and names, and the
 * bars of the comparison chart, for the seeds' decimal sizes, a power-of-two sweep, one odd size and mixed types.
 */
@Timeout(60)
class PlotsTest {

    static Run run(final String backend, final int world, final String start) {
        return new Run("/r/profile_" + backend + "_world" + world + "_" + start + ".json", "0.1", null,
            "local-" + world + "-" + start.hashCode(), "local", backend, world, start, List.of(), List.of("vm"),
            Map.of(), Map.of("iters", 20L), List.of(), "OK", null);
    }

    /** A measurement whose busbw is {@code busbw}; its time follows (all-reduce factor at this world size). */
    static Result at(final Run run, final String coll, final String dtype, final String op, final long size,
                     final double busbw, final boolean inPlace) {
        final double factor = 2.0 * (run.world() - 1) / run.world();
        final double alg = busbw / factor;
        final double time = size / alg / 1e3;
        return new Result(run, coll, dtype, op, -1, size, size / 4, inPlace, time, time * 0.9, time, time * 1.2, 5,
            alg, busbw, 0, null);
    }

    /** The seeds: 1 MB, 10 MB, 100 MB at W = 2, 3, 4 (W = 3 rounds to whole elements per rank). */
    static ResultSet seeds(final String... collectives) {
        final List<Result> rs = new ArrayList<>();
        for (final int w : new int[] {2, 3, 4}) {
            final Run r = run("tcp", w, "2026-11-24T17:34:0" + w);
            for (final String coll : collectives) {
                for (final long size : new long[] {1_000_000, 10_000_000, 100_000_000}) {
                    final long s = w == 3 && !coll.equals("all_reduce") ? size - size % 48 : size;
                    rs.add(at(r, coll, "float32", coll.equals("all_gather") ? null : "sum", s, 1.0 + w * 0.1
                        + size / 1e9, false));
                }
            }
        }
        return new ResultSet(rs, List.of());
    }

    static List<Plots.Planned> plan(final ResultSet set) {
        return Plots.plan(set, 100L << 20);
    }

    static Plots.Planned named(final List<Plots.Planned> plots, final String stem) {
        return plots.stream().filter(p -> p.stem().equals(stem)).findFirst().orElseThrow(() -> new AssertionError(
            stem + " not among " + plots.stream().map(Plots.Planned::stem).toList()));
    }

    @Test
    void decimalSizesAreLabelledInDecimalUnitsAtEveryMeasuredDecade() {
        final List<Plots.Planned> plots = plan(seeds("all_reduce", "all_gather"));
        for (final String stem : List.of("all_reduce_busbw_vs_size", "all_reduce_time_vs_size",
            "all_gather_busbw_vs_size")) {
            final XYChart c = (XYChart) named(plots, stem).chart();
            assertThat(ChartModel.xLabels(c)).as(stem).containsExactly("1 MB", "10 MB", "100 MB");
            assertThat(c.getXAxisTitle()).contains("decimal units: 1 MB = 10^6 B");
        }
    }

    @Test
    void aPowerOfTwoSweepIsLabelledAtPowersOfTwo() {
        final Run a = run("tcp", 2, "2026-11-24T17:50:22");
        final List<Result> rs = new ArrayList<>();
        for (long s = 1024; s <= 1L << 30; s *= 2) {
            rs.add(at(a, "all_reduce", "float32", "sum", s, Math.min(10, s / 1e7), false));
        }
        final XYChart c = (XYChart) named(plan(new ResultSet(rs, List.of())), "all_reduce_busbw_vs_size").chart();
        final List<String> labels = ChartModel.xLabels(c);
        assertThat(labels).hasSizeBetween(6, 21).first().isEqualTo("1 KiB");
        assertThat(labels).last().isEqualTo("1 GiB");
        assertThat(labels).allMatch(l -> l.matches("(1|2|4|8|16|32|64|128|256|512) (KiB|MiB|GiB)"), "a power of two");
        assertThat(c.getXAxisTitle()).contains("binary units");
        // 1e-4 .. 10 GB/s of bandwidth: a linear axis up to a round number above the plateau
        assertThat(c.getYAxisTitle()).doesNotContain("log scale");
        assertThat(ChartModel.yLabels(c)).startsWith("0").endsWith("12");
        // its time, 10,000 .. 107,374 us: a log axis with a label per decade, the top one above every time
        final XYChart t = (XYChart) named(plan(new ResultSet(rs, List.of())), "all_reduce_time_vs_size").chart();
        assertThat(t.getYAxisTitle()).contains("log scale");
        assertThat(ChartModel.yLabels(t)).containsExactly("10,000", "100,000", "1,000,000");
    }

    @Test
    void oneOddSizeStillGetsThreeLabelledTicksAndALinearValueAxis() {
        final Run a = run("tcp", 2, "2026-11-24T17:50:22");
        final ResultSet set = new ResultSet(List.of(at(a, "all_reduce", "float32", "sum", 3_000_000, 1.2, false)),
            List.of());
        final XYChart c = (XYChart) named(plan(set), "all_reduce_busbw_vs_size").chart();
        assertThat(ChartModel.xLabels(c)).hasSizeGreaterThanOrEqualTo(3).allMatch(l -> l.matches("[0-9.]+ [KMG]?B"));
        assertThat(c.getStyler().isYAxisLogarithmic()).isFalse();
        assertThat(c.getYAxisTitle()).doesNotContain("log");
        assertThat(ChartModel.yLabels(c)).hasSizeGreaterThanOrEqualTo(3);
    }

    @Test
    void aValueAxisThatSpansLessThanThreeDecadesIsWidenedOrLinear() {
        assertThat(Axes.values(List.of(0.5, 3.0, 40.0))).isEqualTo(new Axes.ValueScale(true, 0.1, 100));
        assertThat(Axes.values(List.of(1.0, 10.0))).isEqualTo(new Axes.ValueScale(true, 1, 100));
        // 9.9 and 9.7 top out at 12, not 20 (issue 26: a busbw plot of data at 9.7 GB/s used half its height)
        assertThat(Axes.values(List.of(1.0, 9.9))).isEqualTo(new Axes.ValueScale(false, 0, 12));
        assertThat(Axes.linear(List.of(0.4, 9.7))).isEqualTo(new Axes.ValueScale(false, 0, 12));
        assertThat(Axes.linear(List.of(366.0, 322.0))).isEqualTo(new Axes.ValueScale(false, 0, 400));
        assertThat(Axes.values(List.of(1.2))).isEqualTo(new Axes.ValueScale(false, 0, 1.5));
        assertThat(Axes.values(List.of()).log()).isFalse();
        final Run a = run("tcp", 2, "2026-11-24T17:50:22");
        final XYChart c = (XYChart) named(plan(new ResultSet(List.of(at(a, "all_reduce", "float32", "sum", 1024, 0.5,
            false), at(a, "all_reduce", "float32", "sum", 4096, 3, false), at(a, "all_reduce", "float32", "sum",
            16384, 40, false)), List.of())), "all_reduce_busbw_vs_size").chart();
        // bandwidth is always linear: 0 .. 50 GB/s
        assertThat(c.getStyler().isYAxisLogarithmic()).isFalse();
        assertThat(ChartModel.yLabels(c)).startsWith("0").endsWith("50");
    }

    @Test
    void everyRunHasOneColourAndOneReadableNameInEveryPlot() {
        final ResultSet set = seeds("all_reduce", "all_gather", "broadcast");
        final Map<String, Color> seen = new java.util.HashMap<>();
        for (final Plots.Planned p : plan(set)) {
            if (p.chart() instanceof XYChart c) {
                final List<ChartModel.Line> lines = ChartModel.lines(c);
                assertThat(lines).extracting(ChartModel.Line::name).containsExactly("tcp W=2", "tcp W=3", "tcp W=4");
                for (final ChartModel.Line l : lines) {
                    assertThat(seen.putIfAbsent(l.name(), l.color())).as(l.name() + " in " + p.stem())
                        .isIn(null, l.color());
                }
            }
        }
        assertThat(new HashSet<>(seen.values())).hasSize(3);
        // two runs of one backend and world size are told apart by their start, not by their job ids
        final Run a = run("tcp", 4, "2026-11-24T17:34:30");
        final Run b = run("tcp", 4, "2026-11-24T18:02:11");
        final ResultSet two = new ResultSet(List.of(at(a, "all_reduce", "float32", "sum", 1 << 20, 1, false),
            at(b, "all_reduce", "float32", "sum", 1 << 20, 2, false)), List.of());
        final XYChart c = (XYChart) named(plan(two), "all_reduce_busbw_vs_size").chart();
        assertThat(ChartModel.lines(c)).extracting(ChartModel.Line::name)
            .containsExactly("tcp W=4 2026-11-24 17:34", "tcp W=4 2026-11-24 18:02");
    }

    @Test
    void theComparisonShowsEachBarAtItsOwnSizeAndNothingForWhatWasNotMeasured() {
        final Run w2 = run("tcp", 2, "2026-11-24T17:34:02");
        final Run w4 = run("tcp", 4, "2026-11-24T17:34:04");
        final List<Result> rs = new ArrayList<>();
        for (final long s : new long[] {1 << 20, 4 << 20}) {
            rs.add(at(w2, "all_reduce", "float32", "sum", s, 1, false));
            rs.add(at(w2, "broadcast", "float32", null, s, 2, false));
        }
        for (final long s : new long[] {4 << 20, 16 << 20}) {
            rs.add(at(w4, "all_reduce", "float32", "sum", s, 3, false));
        }
        final Plots.Planned p = named(plan(new ResultSet(rs, List.of())), "comparison_near_100MiB");
        final CategoryChart c = (CategoryChart) p.chart();
        assertThat(Charts.groups(c)).containsExactly("all_reduce @ 4 MiB", "all_reduce @ 16 MiB",
            "broadcast @ 4 MiB");
        assertThat(new ArrayList<Object>(c.getSeriesMap().get("tcp W=2").getYData())).containsExactly(1.0, null, 2.0);
        assertThat(new ArrayList<Object>(c.getSeriesMap().get("tcp W=4").getYData())).containsExactly(null, 3.0, null);
        assertThat(p.caption()).contains("nearest to 100 MiB: measured at 4 MiB, 16 MiB").doesNotContain("at 100 MiB:");
        assertThat(c.getSeriesMap().get("tcp W=2").getFillColor()).isNotEqualTo(c.getSeriesMap().get("tcp W=4")
            .getFillColor());
    }

    @Test
    void severalTypesGetAPlotEachAndEveryOperatorALineOfItsOwnDash() {
        final Run a = run("tcp", 2, "2026-11-24T17:51:08");
        final List<Result> rs = new ArrayList<>();
        for (final String dtype : List.of("bfloat16", "float32")) {
            for (final String op : List.of("sum", "max")) {
                for (final long s : new long[] {4096, 65536, 1 << 20}) {
                    rs.add(at(a, "all_reduce", dtype, op, s, 0.5, false));
                    rs.add(at(a, "all_reduce", dtype, op, s, 0.4, true));
                }
            }
        }
        final List<Plots.Planned> plots = plan(new ResultSet(rs, List.of()));
        assertThat(plots).extracting(Plots.Planned::stem).contains("all_reduce_float32_busbw_vs_size",
            "all_reduce_bfloat16_busbw_vs_size", "all_reduce_float32_time_vs_size", "comparison_near_100MiB_float32",
            "comparison_near_100MiB_bfloat16");
        final Plots.Planned bf = named(plots, "all_reduce_bfloat16_busbw_vs_size");
        assertThat(((XYChart) bf.chart()).getTitle()).startsWith("all_reduce bfloat16 sum/max:");
        final List<ChartModel.Line> lines = ChartModel.lines((XYChart) bf.chart());
        assertThat(lines).extracting(ChartModel.Line::name).containsExactly("tcp W=2 sum", "tcp W=2 max");
        assertThat(lines.get(0).color()).isEqualTo(lines.get(1).color());
        assertThat(lines.get(0).stroke()).isNotEqualTo(lines.get(1).stroke());
        assertThat(bf.caption()).contains("operators: sum solid, max dashed", "out-of-place");
        final Set<String> kinds = new HashSet<>();
        Series.of(new ResultSet(rs, List.of())).forEach(s -> kinds.add(s.kind()));
        assertThat(kinds).containsExactlyInAnyOrder("float32 sum", "float32 max", "bfloat16 sum", "bfloat16 max");
    }

    @Test
    void theSizeScaleFollowsTheSizesUnits() {
        assertThat(Axes.decimal(List.of(1_000_000L, 10_000_000L, 100_000_000L))).isTrue();
        assertThat(Axes.decimal(List.of(999_984L, 9_999_984L, 1_000_000L, 10_000_000L))).isTrue();
        assertThat(Axes.decimal(List.of(1024L, 1L << 20, 1L << 30))).isFalse();
        assertThat(Axes.decimal(List.of(8L, 128L))).isFalse();
        assertThat(Axes.sizes(List.of(1_000_000L, 100_000_000L))).isEqualTo(new Axes.SizeScale(true, 6, 8));
        assertThat(Axes.sizes(List.of(999_984L, 99_999_984L))).isEqualTo(new Axes.SizeScale(true, 6, 8));
        assertThat(Axes.sizes(List.of(100_000_000L))).isEqualTo(new Axes.SizeScale(true, 7, 9));
        assertThat(Axes.sizes(List.of(1L))).isEqualTo(new Axes.SizeScale(false, 0, 2));
        assertThat(Axes.sizes(List.of(1024L, 1L << 30))).isEqualTo(new Axes.SizeScale(false, 10, 30));
        final Axes.SizeScale d = new Axes.SizeScale(true, 6, 8);
        assertThat(List.of(d.label(6), d.label(7), d.label(8), d.label(6.5))).containsExactly("1 MB", "10 MB",
            "100 MB", "3.16 MB");
    }
}
