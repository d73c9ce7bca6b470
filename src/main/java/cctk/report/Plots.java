package cctk.report;

import cctk.OwnerFiles;
import cctk.results.Numbers;
import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;

/**
 * The report's PNG plots, rendered headless by XChart ({@link Charts} builds them): per collective and element
 * type, time and busbw against message size, one line per run (and operator: dashed, dotted, ...), one colour per
 * run across the report; and per element type a bar chart of every run and collective at the measured size nearest
 * to one size.
 */
public final class Plots {

    /** Plot size in pixels: wide enough for a legend beside the plot. */
    public static final int WIDTH = Charts.WIDTH;
    public static final int HEIGHT = Charts.HEIGHT;
    /** The most lines one plot shows (runs times operators). */
    public static final int MAX_LINES = 24;
    /** The most collectives plotted. */
    public static final int MAX_COLLECTIVES = 32;
    /** The most element types plotted per collective, and the most comparison charts. */
    public static final int MAX_DTYPES = 8;

    /** One written plot: its file name and what it shows. */
    public record Plot(Path file, String caption) {
    }

    /** A plot before it is drawn: the chart, its file name (stem) and its caption. */
    record Planned(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, String stem, String caption) {
    }

    private Plots() {
    }

    /**
     * Writes every plot into {@code dir}; returns them in the order written. File names are made from the
     * collectives' names by {@link FileNames}: never a path.
     */
    public static List<Plot> write(final ResultSet set, final long atBytes, final Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        final FileNames names = new FileNames();
        final List<Plot> out = new ArrayList<>();
        for (final Planned p : plan(set, atBytes)) {
            final Path file = dir.resolve(names.name(p.stem(), ".png"));
            try {
                OwnerFiles.bytes(file, BitmapEncoder.getBitmapBytes(p.chart(), BitmapEncoder.BitmapFormat.PNG));
            } catch (final IOException e) {
                throw ReportWriter.named(file, e);
            }
            out.add(new Plot(file, p.caption()));
        }
        return out;
    }

    /**
     * Every plot of a report, not yet drawn. At most {@link #MAX_COLLECTIVES} collectives are plotted, each in at
     * most {@link #MAX_DTYPES} element types, each plot with at most {@link #MAX_LINES} lines (the first in the
     * report's order), as a plot of more cannot be read; the captions say so.
     */
    static List<Planned> plan(final ResultSet set, final long atBytes) {
        final List<Series> all = Series.of(set).stream().filter(Series::carriesData).toList();
        final Palette palette = Palette.of(set);
        final Map<String, Map<String, List<Series>>> byColl = new LinkedHashMap<>();
        all.forEach(s -> byColl.computeIfAbsent(s.collective(), k -> new LinkedHashMap<>())
            .computeIfAbsent(Objects.toString(s.dtype(), ""), k -> new ArrayList<>()).add(s));
        final List<Planned> out = new ArrayList<>();
        byColl.entrySet().stream().limit(MAX_COLLECTIVES).forEach(e -> {
            final boolean several = e.getValue().size() > 1;
            e.getValue().entrySet().stream().limit(MAX_DTYPES).forEach(d -> lines(e.getKey(), several ? d.getKey()
                : null, d.getValue(), palette, out));
            if (e.getValue().size() > MAX_DTYPES) {
                final Planned last = out.remove(out.size() - 1);
                out.add(new Planned(last.chart(), last.stem(), last.caption() + " (the first " + MAX_DTYPES + " of "
                    + e.getValue().size() + " element types of " + e.getKey() + " are plotted)"));
            }
        });
        final List<String> dtypes = Series.dtypes(all);
        for (final String dtype : dtypes.stream().limit(MAX_DTYPES).toList()) {
            final List<Series> mine = all.stream().filter(s -> Objects.equals(s.dtype(), dtype)).toList();
            final List<Series> bars = firstOpPerRun(mine, false);
            if (!bars.isEmpty()) {
                out.add(comparison(set, bars, atBytes, dtypes.size() > 1 ? dtype : null, palette,
                    bars.size() < firstOpPerRun(mine, true).size()));
            }
        }
        return out;
    }

    /** The time and busbw plots of one collective and type ({@code dtype} null: the collective's only type). */
    private static void lines(final String coll, final String dtype, final List<Series> series, final Palette palette,
                              final List<Planned> out) {
        final List<Series> lines = series.subList(0, Math.min(MAX_LINES, series.size()));
        final String left = series.size() > MAX_LINES ? " (the first " + MAX_LINES + " of " + series.size()
            + " runs)" : "";
        final List<String> ops = lines.stream().map(Series::op).distinct().toList();
        final String kind = kind(lines.get(0).dtype(), ops);
        final String stem = coll + (dtype == null ? "" : "_" + dtype);
        final String about = describe(ops, lines);
        out.add(new Planned(Charts.line(coll + " " + kind + ": time per call vs message size" + where(lines),
            "time per call (us)", lines, Result::timeUs, false, palette), stem + "_time_vs_size",
            coll + " " + kind + ": time per call against message size" + left + about));
        out.add(new Planned(Charts.line(coll + " " + kind + ": bus bandwidth vs message size" + where(lines),
            "busbw (GB/s, 1e9 B/s)", lines, Result::busBw, true, palette), stem + "_busbw_vs_size",
            coll + " " + kind + ": bus bandwidth against message size" + left + about));
    }

    /** What the lines of a plot are: the layout, and which dash stands for which operator. */
    private static String describe(final List<String> ops, final List<Series> lines) {
        final boolean inPlaceOnly = lines.stream().anyMatch(s -> s.points().stream().allMatch(Result::inPlace));
        final StringBuilder sb = new StringBuilder("; out-of-place" + (inPlaceOnly
            ? " (in-place where a run measured only that)" : ""));
        if (ops.size() > 1) {
            sb.append("; operators: ");
            for (int i = 0; i < ops.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(ops.get(i)).append(' ').append(Palette.strokeName(i));
            }
        }
        return sb.toString();
    }

    private static Planned comparison(final ResultSet set, final List<Series> bars, final long atBytes,
                                      final String dtype, final Palette palette, final boolean cut) {
        final Set<String> ops = new LinkedHashSet<>();
        bars.stream().map(Series::op).filter(Objects::nonNull).forEach(ops::add);
        // an operator only where every bar has one: "float32; sum for the reductions" where some do not
        final boolean allOps = bars.stream().allMatch(s -> s.op() != null);
        final String dtypeText = Objects.toString(bars.get(0).dtype(), "");
        final String opText = ops.isEmpty() ? "" : String.join("/", ops) + (allOps ? "" : " for the reductions");
        final String kind = dtypeText.isEmpty() || opText.isEmpty() ? dtypeText + opText
            : dtypeText + (allOps ? " " : "; ") + opText;
        final String at = Numbers.size(atBytes);
        final CategoryChart chart = Charts.bars("Bus bandwidth at the measured size nearest to " + at
            + (kind.isEmpty() ? "" : " (" + kind + ")") + where(bars), bars, atBytes, false, palette, set::nameOf);
        final Set<Long> sizes = new java.util.TreeSet<>();
        bars.forEach(s -> sizes.add(s.nearest(atBytes).sizeBytes()));
        final String measured = String.join(", ", sizes.stream().map(Numbers::size).toList());
        return new Planned(chart, "comparison_near_" + at.replace(" ", "") + (dtype == null ? "" : "_" + dtype),
            "bus bandwidth of every run and collective" + (kind.isEmpty() ? "" : " (" + kind + ")")
            + " at the measured size nearest to " + at + ": measured at " + measured + " (each group of bars names"
            + " its size; a missing bar was not measured)" + (cut ? " (the first " + MAX_LINES + " runs of the first "
            + MAX_COLLECTIVES + " collectives)" : ""));
    }

    /**
     * Per run and collective the first series (its main operator); within the plot limits unless {@code all}.
     */
    private static List<Series> firstOpPerRun(final List<Series> series, final boolean all) {
        final List<Series> out = new ArrayList<>();
        final Map<String, Set<Run>> runs = new LinkedHashMap<>();
        for (final Series s : series) {
            Set<Run> rs = runs.get(s.collective());
            if (rs == null) {
                if (!all && runs.size() == MAX_COLLECTIVES) {
                    continue;
                }
                rs = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
                runs.put(s.collective(), rs);
            }
            if (!rs.contains(s.run()) && (all || rs.size() < MAX_LINES)) {
                rs.add(s.run());
                out.add(s);
            }
        }
        return out;
    }

    private static String kind(final String dtype, final List<String> ops) {
        final String o = String.join("/", ops.stream().filter(Objects::nonNull).toList());
        return (Objects.toString(dtype, "") + " " + o).strip();
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
}
