package cctk.results;

import cctk.Printable;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The machine's cross-core readings as a run's files record them: how long rank 0's two threads took to hand 1 MiB
 * of freshly written memory between two cores and back (bench's {@code CrossCore}), before the JIT warm-up (the JSON's
 * {@code args.machine}, the header) and after the sweep ({@code summary.machine}, the footer; read back into
 * {@link Run#args()} as {@value #AT_END}). {@code cctk compare} reads them to tell a machine that changed between runs
 * from a change of the code.
 * <b>Note:</b> threadsafe (no state).
 */
public final class CrossCoreReadings {

    /** The key in {@code args} of the reading before the warm-up, and in {@code summary} of the one after the sweep. */
    public static final String ARG = "machine";
    /** The key in {@link Run#args()} of the reading after the sweep, as the JSON's reader puts it there. */
    public static final String AT_END = "machine_at_end";
    /** The key of a reading inside either map. */
    public static final String KEY = "crosscore_1mib_round_trip";
    /** Readings farther apart than this factor tell of a machine that changed (its modes lie 4-6x apart here). */
    public static final double CHANGED = 2.0;

    private CrossCoreReadings() {
    }

    /**
     * The map a reading is recorded as: {@code {KEY: {"us": 95.3, "fastest_us": 88.1, "trips": 60}}} ({@code us}: the
     * lower quartile of the round trips), with {@code "disturbed": true} when most turns waited for a core even after
     * retries (other threads were running: the reading says nothing of the cores' handoff then), or
     * {@code {KEY: {"none": why}}} when none was taken ({@code us} NaN).
     */
    public static Map<String, Object> json(final double us, final int trips, final double fastestUs,
                                           final boolean disturbed, final String why) {
        final Map<String, Object> r = new LinkedHashMap<>();
        if (Double.isNaN(us)) {
            r.put("none", why);
        } else {
            r.put("us", Numbers.significant(us));
            r.put("fastest_us", Numbers.significant(fastestUs));
            r.put("trips", trips);
            if (disturbed) {
                r.put("disturbed", true);
            }
        }
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put(KEY, r);
        return m;
    }

    /** The round trip in µs of a map {@link #json} made, or NaN when it holds none or a disturbed one. */
    public static double us(final Object machine) {
        return machine instanceof Map<?, ?> m && m.get(KEY) instanceof Map<?, ?> r && r.get("us") instanceof Number n
            && n.doubleValue() > 0 && !Boolean.TRUE.equals(r.get("disturbed")) ? n.doubleValue() : Double.NaN;
    }

    /** True when the map {@link #json} made holds a reading that other threads disturbed. */
    public static boolean disturbed(final Object machine) {
        return machine instanceof Map<?, ?> m && m.get(KEY) instanceof Map<?, ?> r
            && Boolean.TRUE.equals(r.get("disturbed"));
    }

    /** The readings of {@code run} in µs, before the warm-up then after the sweep, those it took only. */
    public static double[] of(final Run run) {
        return Arrays.stream(new double[] {us(run.args().get(ARG)), us(run.args().get(AT_END))})
            .filter(Double::isFinite).toArray();
    }

    /** True when two readings (µs, NaN for none) lie more than {@link #CHANGED} apart. */
    public static boolean changed(final double a, final double b) {
        return a > 0 && b > 0 && Math.max(a, b) / Math.min(a, b) > CHANGED;
    }

    /**
     * The footer's sentence on the readings (maps {@link #json} made, or null) before the warm-up and after the sweep.
     */
    public static String sentence(final Object start, final Object end) {
        final String what = "a 1 MiB round trip between two cores (two threads of rank 0) " + took(end)
            + " after the sweep";
        if (start == null) {
            return what;
        }
        final double a = us(start);
        final double b = us(end);
        return what + ", " + took(start).replaceFirst("^took ", "") + " before the warm-up" + (changed(a, b)
            ? ": the machine changed during the run (more than " + Numbers.plain(CHANGED) + "x), and the figures of"
            + " collectives that hand data between the cores of one host may have moved with it" : "");
    }

    /**
     * One reading in words: {@code took 95 µs}, {@code was disturbed (8003 µs: other threads held the cores)} or
     * {@code took none (one CPU)}.
     */
    public static String took(final Object machine) {
        if (!(machine instanceof Map<?, ?> m && m.get(KEY) instanceof Map<?, ?> r)) {
            return "took none";
        }
        if (r.get("none") != null) {
            return "took none (" + Printable.of(String.valueOf(r.get("none"))) + ")";
        }
        final String us = r.get("us") instanceof Number n ? Long.toString(Math.round(n.doubleValue())) : "?";
        return disturbed(machine) ? "was disturbed (" + us + " µs: other threads held the cores)"
            : "took " + us + " µs";
    }

    /** The readings in words, e.g. {@code 95 µs} or {@code 95 and 480 µs}; empty when none. */
    public static String text(final double[] us) {
        final String[] s = Arrays.stream(us).mapToObj(v -> Long.toString(Math.round(v))).toArray(String[]::new);
        return s.length == 0 ? "" : String.join(" and ", s) + " µs";
    }
}
