package cctk.report;

import cctk.results.Result;
import cctk.results.ResultSet;
import cctk.results.Run;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of a report: per series the plateau bus bandwidth (the median busbw of the sizes within a factor
 * {@link #PLATEAU_SPAN} of the largest measured, never an average over all sizes), where one series overtakes
 * another, ratios of plateau bandwidths between backends and world sizes, and noisy measurements.
 *
 * @param plateaus   one per series that carries data
 * @param crossovers one per pair of series where the faster one changes with size
 * @param ratios     plateau busbw ratios of pairs that share a backend or a world size
 * @param outliers   measurements whose variation exceeds the threshold, noisiest first
 * @param wrong      wrong elements over all checked measurements
 * @param notes      what was left out of the pairwise figures (too many series of one collective)
 */
public record Analysis(List<Plateau> plateaus, List<Crossover> crossovers, List<Ratio> ratios,
                       List<Outlier> outliers, long wrong, List<String> notes) {

    /** Sizes of at least largest / 16 form the plateau: the last 5 points of a doubling sweep. */
    public static final long PLATEAU_SPAN = 16;
    /** Coefficient of variation (percent) above which a measurement is listed as an outlier. */
    public static final double DEFAULT_CV_LIMIT = 20;
    /** Crossovers and ratios are figured for pairs of at most this many series of one collective. */
    public static final int MAX_PAIRWISE = 32;
    private static final int MAX_OUTLIERS = 15;

    /**
     * The large-message plateau of one series.
     *
     * @param series    the series
     * @param busBw     median busbw over the plateau sizes
     * @param peakBusBw the highest busbw at any size
     * @param fromBytes smallest plateau size
     * @param toBytes   largest plateau size
     * @param sizes     how many sizes the median is over
     */
    public record Plateau(Series series, double busBw, double peakBusBw, long fromBytes, long toBytes, int sizes) {
    }

    /**
     * {@code faster} takes less time than {@code slower} at {@code atBytes} and every larger common size, and
     * did not at the common size just below; {@code sizes} counts the common sizes from there on (1: only the
     * largest, which one noisy point can decide).
     */
    public record Crossover(String collective, Series faster, Series slower, long atBytes, int sizes) {
    }

    /** {@code a}'s plateau busbw divided by {@code b}'s. */
    public record Ratio(String collective, Plateau a, Plateau b, double ratio) {
    }

    /** A measurement with a high variation across iterations; p99/p50 shows how heavy the tail is. */
    public record Outlier(Result result, String name, double cvPct, double tail) {
    }

    /** Analyses a result set with the default outlier limit. */
    public static Analysis of(final ResultSet set) {
        return of(set, DEFAULT_CV_LIMIT);
    }

    /** Analyses a result set; measurements with a CV above {@code cvLimit} percent are outliers. */
    public static Analysis of(final ResultSet set, final double cvLimit) {
        final List<Series> series = Series.of(set);
        final List<Plateau> plateaus = new ArrayList<>();
        for (final Series s : series) {
            if (s.carriesData()) {
                plateaus.add(plateau(s));
            }
        }
        final List<Crossover> crossovers = new ArrayList<>();
        final List<Ratio> ratios = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        final Map<String, List<Plateau>> byColl = new LinkedHashMap<>();
        plateaus.forEach(p -> byColl.computeIfAbsent(p.series().collective(), k -> new ArrayList<>()).add(p));
        byColl.forEach((coll, ps) -> {
            if (ps.size() > MAX_PAIRWISE) {
                notes.add(coll + ": " + ps.size() + " series, more than " + MAX_PAIRWISE + ": no crossovers or ratios"
                    + " figured for it (report on fewer runs to see them)");
            } else {
                pairs(ps, crossovers, ratios);
            }
        });
        final List<Outlier> outliers = new ArrayList<>();
        long wrong = 0;
        for (final Result r : set.results()) {
            wrong += r.measured() ? Math.max(0, r.wrong()) : 0;
            if (r.measured() && r.cvPct() > cvLimit) {
                outliers.add(new Outlier(r, set.nameOf(r.run()), r.cvPct(), r.p99Us() / r.p50Us()));
            }
        }
        outliers.sort(Comparator.comparingDouble(Outlier::cvPct).reversed());
        return new Analysis(plateaus, crossovers, ratios,
            List.copyOf(outliers.subList(0, Math.min(MAX_OUTLIERS, outliers.size()))), wrong, List.copyOf(notes));
    }

    private static void pairs(final List<Plateau> ps, final List<Crossover> crossovers, final List<Ratio> ratios) {
        for (int i = 0; i < ps.size(); i++) {
            for (int j = i + 1; j < ps.size(); j++) {
                final Plateau a = ps.get(i);
                final Plateau b = ps.get(j);
                crossover(a.series(), b.series(), crossovers);
                crossover(b.series(), a.series(), crossovers);
                final Run ra = a.series().run();
                final Run rb = b.series().run();
                if (ra.backend().equals(rb.backend()) || ra.world() == rb.world()) {
                    ratios.add(new Ratio(a.series().collective(), b, a, b.busBw() / a.busBw()));
                }
            }
        }
    }

    /** The plateau of one series: sizes of at least largest / {@link #PLATEAU_SPAN}, median busbw over them. */
    static Plateau plateau(final Series s) {
        final List<Result> data = s.points().stream().filter(p -> Double.isFinite(p.busBw())).toList();
        final long largest = data.get(data.size() - 1).sizeBytes();
        final long from = (largest + PLATEAU_SPAN - 1) / PLATEAU_SPAN;
        final List<Result> top = data.stream().filter(p -> p.sizeBytes() >= from).toList();
        final double peak = data.stream().mapToDouble(Result::busBw).max().orElse(Double.NaN);
        return new Plateau(s, median(top.stream().map(Result::busBw).toList()), peak, top.get(0).sizeBytes(),
            largest, top.size());
    }

    /** The median of finite values; NaN when there are none. */
    public static double median(final List<Double> values) {
        final List<Double> v = values.stream().filter(Double::isFinite).sorted().toList();
        if (v.isEmpty()) {
            return Double.NaN;
        }
        final int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    /** Points are sorted by size: the common sizes are found in one merge. */
    private static void crossover(final Series a, final Series b, final List<Crossover> out) {
        final List<long[]> common = new ArrayList<>();
        final List<Result> pa = a.points();
        final List<Result> pb = b.points();
        for (int i = 0, j = 0; i < pa.size() && j < pb.size();) {
            final long sa = pa.get(i).sizeBytes();
            final long sb = pb.get(j).sizeBytes();
            if (sa == sb) {
                common.add(new long[] {sa, pa.get(i).timeUs() < pb.get(j).timeUs() ? 1 : 0});
            }
            if (sa <= sb) {
                i++;
            }
            if (sb <= sa) {
                j++;
            }
        }
        int from = common.size();
        while (from > 0 && common.get(from - 1)[1] == 1) {
            from--;
        }
        if (from > 0 && from < common.size()) {
            out.add(new Crossover(a.collective(), a, b, common.get(from)[0], common.size() - from));
        }
    }
}
