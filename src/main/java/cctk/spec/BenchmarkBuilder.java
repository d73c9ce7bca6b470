package cctk.spec;

import cctk.comm.CollectiveType;
import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.spec.SpecValue.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Checks the {@code benchmark:} section and builds {@link Benchmark}, with its defaults. */
final class BenchmarkBuilder {

    /** {@code tcp}: the CPU backend as the {@code tcp:} section says; {@code tcp-flat}: TCP between every pair. */
    static final List<String> BACKENDS = List.of("tcp", "tcp-flat", "gloo", "nccl");
    private static final Pattern DURATION = Pattern.compile("([1-9][0-9]{0,6})(s|m|h)");
    private static final int MAX_TIMEOUT = 86_400;
    private static final int MAX_JIT_WARMUP = 600;
    private static final int MAX_REPEATS = 1000;
    private static final int MAX_WINDOW_MILLIS = 60_000;
    private static final double MAX_SPREAD = 1e6;

    private BenchmarkBuilder() {
    }

    /** {@code resourcesOk} false skips the checks against the allocation (its numbers are only defaults). */
    static Benchmark build(final Section s, final Resources r, final boolean resourcesOk, final NcclOptions nccl) {
        final List<String> backends = backends(s, r, nccl);
        final List<Integer> tasks = SpecBuilder.taskCounts(s, r, resourcesOk);
        final List<CollectiveType> collectives = collectives(s);
        final List<MessageSize> sizes = sizes(s);
        final List<DType> dtypes = named(s, "dtypes", DType::bySpecName, DType.FLOAT32,
                Arrays.stream(DType.values()).map(DType::specName).toList());
        final List<ReduceOp> ops = named(s, "ops", ReduceOp::bySpecName, ReduceOp.SUM,
                Arrays.stream(ReduceOp.values()).map(ReduceOp::specName).toList());
        final int warmup = s.integer("warmup", 0, 1_000_000, Benchmark.DEFAULT_WARMUP);
        final int iters = s.integer("iters", 1, 1_000_000, Benchmark.DEFAULT_ITERS);
        final int checkIters = s.integer("check_iters", 0, 1_000_000, Benchmark.DEFAULT_CHECK_ITERS);
        final Benchmark.InPlace inPlace = inPlace(s);
        final int minTasks = Collections.min(tasks);
        final int root = s.integer("root", 0, Math.max(0, minTasks - 1), 0);
        final Benchmark.Imbalance imbalance = imbalance(s.section("alltoallv"));
        final int timeout = seconds(s, "timeout", "a timeout", 1, MAX_TIMEOUT, "from 1s to 24h",
                Benchmark.DEFAULT_TIMEOUT_SECONDS);
        final int jitWarmup = seconds(s, "jit_warmup", "a warm-up budget", 0, MAX_JIT_WARMUP, "from 0 (none) to 10m",
                Benchmark.DEFAULT_JIT_WARMUP_SECONDS);
        final int repeats = s.integer("repeats", 1, MAX_REPEATS, Benchmark.DEFAULT_REPEATS);
        final boolean retime = s.bool("retime", true);
        final int window = s.integer("window_ms", 0, MAX_WINDOW_MILLIS, Benchmark.DEFAULT_WINDOW_MILLIS);
        final Benchmark.TimeAcrossRanks across = timeAcrossRanks(s);
        s.finish();
        return new Benchmark(backends, tasks, collectives, sizes, dtypes, ops, warmup, iters, checkIters, inPlace,
                root, imbalance, timeout, jitWarmup, repeats, retime, window, across);
    }

    /** {@code time_across_ranks}: max (the default) or mean; anything else is a problem naming both. */
    private static Benchmark.TimeAcrossRanks timeAcrossRanks(final Section s) {
        final SpecValue v = s.get("time_across_ranks");
        if (v == null) {
            return Benchmark.TimeAcrossRanks.MAX;
        }
        final Benchmark.TimeAcrossRanks t = v.kind() == Kind.STRING ? Benchmark.TimeAcrossRanks.bySpecName(v.text())
                : null;
        if (t == null) {
            final List<String> known = Arrays.stream(Benchmark.TimeAcrossRanks.values())
                    .map(Benchmark.TimeAcrossRanks::specName).toList();
            final String hint = v.kind() == Kind.STRING ? Suggestions.didYouMean(v.text(), known) : "";
            s.problems().expected(v, s.keyPath("time_across_ranks"), "max or mean (each rank's mean per call, then"
                    + " the max or the mean over ranks)", hint);
            return Benchmark.TimeAcrossRanks.MAX;
        }
        return t;
    }

    private static List<String> backends(final Section s, final Resources r, final NcclOptions nccl) {
        final List<String> known = new ArrayList<>(BACKENDS);
        if (!known.contains(nccl.backendName())) {
            known.add(nccl.backendName());
        }
        final List<SpecValue> raw = s.listOrOne("backends");
        if (raw == null) {
            return List.of("tcp");
        }
        final List<String> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            final SpecValue v = raw.get(i);
            final String path = item(s, "backends", i);
            final String name = s.text(v, path, null);
            if (name == null) {
                continue;
            }
            if (!known.contains(name)) {
                s.problems().expected(v, path, String.join(", ", known.subList(0, known.size() - 1)) + " or "
                    + known.get(known.size() - 1), Suggestions.didYouMean(name, known));
            } else if (out.contains(name)) {
                s.problems().expected(v, path, "each backend once");
            } else if (nccl.serves(name) && r.gpusPerNode() == 0) {
                s.problems().expected(v, path, "tcp or tcp-flat, because " + name + " needs GPUs"
                        + " (resources.gpus_per_node is 0)");
            } else {
                out.add(name);
            }
        }
        emptyList(s, "backends", raw, "at least one backend (tcp, tcp-flat or nccl)");
        return out.isEmpty() ? List.of("tcp") : List.copyOf(out);
    }

    private static List<CollectiveType> collectives(final Section s) {
        final SpecValue v = s.get("collectives");
        if (v == null || (v.kind() == Kind.STRING && v.text().equals("all"))) {
            return List.of(CollectiveType.values());
        }
        final List<String> names = Arrays.stream(CollectiveType.values()).map(CollectiveType::specName).toList();
        final List<CollectiveType> out = named(s, "collectives", CollectiveType::bySpecName, null, names);
        return out.isEmpty() ? List.of(CollectiveType.values()) : out;
    }

    /** A list (or one item) of names looked up by {@code byName}; unknown names get a suggestion. */
    private static <T> List<T> named(final Section s, final String key, final Function<String, T> byName,
                                     final T fallback, final List<String> known) {
        final List<SpecValue> raw = s.listOrOne(key);
        if (raw == null) {
            return List.of(fallback);
        }
        final List<T> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            final String path = item(s, key, i);
            final String name = s.text(raw.get(i), path, null);
            final T t = name == null ? null : byName.apply(name);
            if (name != null && t == null) {
                s.problems().expected(raw.get(i), path, "one of " + String.join(", ", known),
                        Suggestions.didYouMean(name, known));
            } else if (t != null && out.contains(t)) {
                s.problems().expected(raw.get(i), path, "each name once");
            } else if (t != null) {
                out.add(t);
            }
        }
        emptyList(s, key, raw, "at least one of " + String.join(", ", known));
        return out.isEmpty() && fallback != null ? List.of(fallback) : List.copyOf(out);
    }

    private static List<MessageSize> sizes(final Section s) {
        final SpecValue v = s.get("sizes");
        final List<MessageSize> fallback = List.of(Benchmark.DEFAULT_SIZE);
        if (v == null) {
            return fallback;
        }
        if (v.kind() == Kind.MAP) {
            final Section sweep = s.section("sizes");
            final MessageSize min = size(sweep, "min");
            final MessageSize max = size(sweep, "max");
            final int factor = sweep.integer("factor", 2, 1024, 2);
            sweep.finish();
            if (min == null || max == null) {
                return fallback;
            }
            try {
                return Sizes.sweep(min, max, factor);
            } catch (final IllegalArgumentException e) {
                s.problems().add(v.where(), s.keyPath("sizes"), "expected " + e.getMessage() + ", found min "
                        + min.specText() + ", max " + max.specText() + ", factor " + factor);
                return fallback;
            }
        }
        final List<SpecValue> raw = s.listOrOne("sizes");
        final List<MessageSize> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            final MessageSize m = size(s, raw.get(i), item(s, "sizes", i));
            if (m != null && out.contains(m)) {
                s.problems().expected(raw.get(i), item(s, "sizes", i), "each size once (" + m.specText()
                        + " is already listed)");
            } else if (m != null) {
                out.add(m);
            }
        }
        emptyList(s, "sizes", raw, "at least one size");
        return out.isEmpty() ? fallback : List.copyOf(out);
    }

    private static MessageSize size(final Section s, final String key) {
        final SpecValue v = s.get(key);
        if (v == null) {
            s.missing(key, Sizes.EXPECTED);
            return null;
        }
        return size(s, v, s.keyPath(key));
    }

    private static MessageSize size(final Section s, final SpecValue v, final String path) {
        if (v.kind() != Kind.INT && v.kind() != Kind.STRING) {
            s.problems().expected(v, path, Sizes.EXPECTED);
            return null;
        }
        if (v.kind() == Kind.STRING && v.text().matches("[0-9]+")) {
            s.problems().expected(v, path, "a unit for bytes (such as " + v.text() + "B) or an unquoted integer"
                    + " for elements");
            return null;
        }
        try {
            return Sizes.parse(v.text());
        } catch (final IllegalArgumentException e) {
            s.problems().expected(v, path, e.getMessage());
            return null;
        }
    }

    private static Benchmark.InPlace inPlace(final Section s) {
        final SpecValue v = s.get("in_place");
        if (v == null) {
            return Benchmark.InPlace.BOTH;
        }
        if (v.kind() == Kind.BOOL) {
            final String t = v.text().toLowerCase(Locale.ROOT);
            final boolean yes = t.equals("true") || t.equals("yes") || t.equals("on") || t.equals("y");
            return yes ? Benchmark.InPlace.IN_PLACE : Benchmark.InPlace.OUT_OF_PLACE;
        }
        if (v.kind() == Kind.STRING && v.text().equals("both")) {
            return Benchmark.InPlace.BOTH;
        }
        s.problems().expected(v, s.keyPath("in_place"), "both, true or false");
        return Benchmark.InPlace.BOTH;
    }

    private static Benchmark.Imbalance imbalance(final Section s) {
        double spread = 4;
        final SpecValue v = s.get("spread");
        if (v != null) {
            final boolean number = v.kind() == Kind.INT || v.kind() == Kind.FLOAT;
            final double d = number ? parseDouble(v.text()) : Double.NaN;
            if (!(d >= 1 && d <= MAX_SPREAD)) {
                s.problems().expected(v, s.keyPath("spread"), "a number from 1 to 1000000 (max/min per-peer count)");
            } else {
                spread = d;
            }
        }
        String matrix = s.string("matrix", null);
        if (matrix != null) {
            final Path from = s.get("matrix").where().file().toAbsolutePath().getParent();
            final Path m = from.resolve(matrix).normalize();
            if (!Files.isRegularFile(m)) {
                s.problems().expected(s.get("matrix"), s.keyPath("matrix"), "a readable matrix file (relative paths"
                        + " start at the spec's directory)");
            }
            matrix = m.toString();
        }
        s.finish();
        return new Benchmark.Imbalance(spread, matrix);
    }

    private static double parseDouble(final String text) {
        try {
            return Double.parseDouble(text.replace("_", ""));
        } catch (final NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** Seconds: an integer, or a number with s, m or h, within [min, max]. */
    private static int seconds(final Section s, final String key, final String what, final int min, final int max,
                               final String range, final int fallback) {
        final SpecValue v = s.get(key);
        if (v == null) {
            return fallback;
        }
        final String expected = what + " in seconds such as 120, 90s, 2m or 1h, " + range;
        if (v.kind() == Kind.INT) {
            return s.integer(v, s.keyPath(key), min, max, fallback);
        }
        final Matcher m = v.kind() == Kind.STRING ? DURATION.matcher(v.text()) : null;
        if (m == null || !m.matches()) {
            s.problems().expected(v, s.keyPath(key), expected);
            return fallback;
        }
        final long unit = m.group(2).equals("h") ? 3600 : m.group(2).equals("m") ? 60 : 1;
        final long seconds = Long.parseLong(m.group(1)) * unit;
        if (seconds < min || seconds > max) {
            s.problems().expected(v, s.keyPath(key), expected);
            return fallback;
        }
        return (int) seconds;
    }

    private static String item(final Section s, final String key, final int i) {
        return s.keyPath(key) + (s.get(key).kind() == Kind.LIST ? "[" + i + "]" : "");
    }

    private static void emptyList(final Section s, final String key, final List<SpecValue> raw, final String what) {
        if (raw.isEmpty()) {
            s.problems().expected(s.get(key), s.keyPath(key), what);
        }
    }
}
