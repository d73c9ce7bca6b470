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
 * The figures of a report, all by bus bandwidth: per series the plateau busbw (the median busbw of the sizes
 * within a factor {@link #PLATEAU_SPAN} of the largest measured, never an average over all sizes), where one
 * series overtakes another in busbw, ratios of plateau bandwidths between backends and world sizes, and noisy
 * measurements. Pairs are only made of series of the same collective, element type and operator, and a ratio only
 * over the sizes both measured.
 *
 * @param plateaus   one per series that carries data
 * @param crossovers one per pair of series where the faster one changes with size
 * @param ratios     busbw ratios of pairs that share a backend or a world size, over the plateau of their common
 *                   sizes
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
     * {@code faster} has the higher busbw of the two at {@code atBytes} and every larger common size, and did not
     * at the common size just below; {@code sizes} counts the common sizes from there on (1: only the largest,
     * which one noisy point can decide). Busbw, as the plateaus, ratios and plots: at different world sizes the
     * time per call and the busbw can rank two runs in opposite order, and one figure serves every claim.
     */
    public record Crossover(String collective, Series faster, Series slower, long atBytes, int sizes) {
    }

    /**
     * {@code a}'s median busbw divided by {@code b}'s, both over the same sizes: those both measured within a factor
     * {@link #PLATEAU_SPAN} of the largest size both measured.
     *
     * @param a         the numerator's series
     * @param b         the denominator's series
     * @param ratio     the ratio of the medians
     * @param fromBytes smallest size used
     * @param toBytes   largest size used
     * @param sizes     how many sizes
     */
    public record Ratio(Series a, Series b, double ratio, long fromBytes, long toBytes, int sizes) {
    }

    /**
     * A measurement with a high variation across iterations; p99/p50 shows how heavy the tail is. Its result names
     * the collective, element type, operator, layout and size.
     */
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
        final Map<String, List<Plateau>> byKind = new LinkedHashMap<>();
        plateaus.forEach(p -> byKind.computeIfAbsent(p.series().collective() + kindSuffix(p.series()),
            k -> new ArrayList<>()).add(p));
        byKind.forEach((kind, ps) -> {
            if (ps.size() > MAX_PAIRWISE) {
                notes.add(kind + ": " + ps.size() + " series, more than " + MAX_PAIRWISE + ": no crossovers or ratios"
                    + " figured for it (report on fewer runs to see them)");
            } else if (pairs(ps, crossovers, ratios)) {
                notes.add(kind + ": no crossovers figured between repeats of one configuration (what tells them"
                    + " apart is noise)");
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

    /** Crossovers and ratios of the pairs of {@code ps}; true when some pairs were repeats (no crossovers). */
    private static boolean pairs(final List<Plateau> ps, final List<Crossover> crossovers,
                                 final List<Ratio> ratios) {
        boolean repeats = false;
        for (int i = 0; i < ps.size(); i++) {
            for (int j = i + 1; j < ps.size(); j++) {
                final Plateau a = ps.get(i);
                final Plateau b = ps.get(j);
                final Run ra = a.series().run();
                final Run rb = b.series().run();
                if (Ranking.config(ra).equals(Ranking.config(rb))) {
                    repeats = true;
                } else {
                    crossover(a.series(), b.series(), crossovers);
                    crossover(b.series(), a.series(), crossovers);
                }
                if (ra.backend().equals(rb.backend()) || ra.world() == rb.world()) {
                    final Ratio r = ratio(b.series(), a.series());
                    if (r != null) {
                        ratios.add(r);
                    }
                }
            }
        }
        return repeats;
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

    /**
     * {@code a} against {@code b} over the plateau of the sizes both measured (within {@link #PLATEAU_SPAN} of the
     * largest common size); null when they have no size in common.
     */
    static Ratio ratio(final Series a, final Series b) {
        final NominalSizes nominal = new NominalSizes(Series.sizes(List.of(a, b)));
        final java.util.TreeMap<Long, double[]> common = new java.util.TreeMap<>();
        a.byNominal(nominal).forEach((n, p) -> common.put(n, new double[] {p.busBw(), Double.NaN}));
        b.byNominal(nominal).forEach((n, p) -> {
            if (common.containsKey(n)) {
                common.get(n)[1] = p.busBw();
            }
        });
        common.values().removeIf(v -> !Double.isFinite(v[0]) || !Double.isFinite(v[1]));
        if (common.isEmpty()) {
            return null;
        }
        final long largest = common.lastKey();
        final var top = common.tailMap((largest + PLATEAU_SPAN - 1) / PLATEAU_SPAN, true);
        final double ma = median(top.values().stream().map(v -> v[0]).toList());
        final double mb = median(top.values().stream().map(v -> v[1]).toList());
        return new Ratio(a, b, ma / mb, top.firstKey(), largest, top.size());
    }

    /** " float32 sum", " float32" or "" (a barrier): what a collective's series are compared within. */
    static String kindSuffix(final Series s) {
        return s.kind().isEmpty() ? "" : " " + s.kind();
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

    /** Points are matched by nominal size ({@link NominalSizes}); sizes where either lacks a busbw are skipped. */
    private static void crossover(final Series a, final Series b, final List<Crossover> out) {
        final NominalSizes nominal = new NominalSizes(Series.sizes(List.of(a, b)));
        final java.util.TreeMap<Long, Result> pb = b.byNominal(nominal);
        final List<long[]> common = new ArrayList<>();
        a.byNominal(nominal).forEach((n, p) -> {
            final Result q = pb.get(n);
            if (q != null && Double.isFinite(p.busBw()) && Double.isFinite(q.busBw())) {
                common.add(new long[] {n, p.busBw() > q.busBw() ? 1 : 0});
            }
        });
        int from = common.size();
        while (from > 0 && common.get(from - 1)[1] == 1) {
            from--;
        }
        if (from > 0 && from < common.size()) {
            out.add(new Crossover(a.collective(), a, b, common.get(from)[0], common.size() - from));
        }
    }
}
