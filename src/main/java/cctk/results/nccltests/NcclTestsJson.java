package cctk.results.nccltests;

import cctk.Printable;
import cctk.results.Checks;
import cctk.results.Column;
import cctk.results.RankInfo;
import cctk.results.Result;
import cctk.results.Run;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Reads the JSON that nccl-tests writes with {@code -J FILE} (its format versions 1 to 3, as its src/util.cu writes
 * it) as one cctk run, backend {@value NcclTests#BACKEND}: {@code args[0]} is the binary, which names the test;
 * {@code config} holds {@code nthreads}, {@code ngpus}, {@code iterations} and {@code devices} (one entry per
 * process: the world size is the processes in the first one's {@code group} times threads times GPUs);
 * {@code start_time} the start; each of {@code results} has {@code size}, {@code count}, {@code type},
 * {@code redop}, {@code root} (text), and {@code out_of_place} / {@code in_place} objects with {@code time} (us),
 * {@code alg_bw}, {@code bus_bw} and {@code nwrong} (null when not checked), and with {@code -I 1} the
 * {@code *_per_iter} objects' {@code min_us}, {@code p50_us}, {@code p99_us} and {@code cv_pct}; algbw and busbw are
 * computed again from size and time ({@link NcclTests#bandwidths}: {@code %lf} keeps 6 decimals, which leaves the
 * bandwidth of a few bytes 2 or 3 digits). nccl-tests writes NaN
 * as the text "nan": such a layout is left out. Only {@code NCCL_*} variables of its {@code env} are kept.
 * <b>Note:</b> threadsafe (no state).
 */
public final class NcclTestsJson {

    /** The step of nccl-tests' JSON bandwidths, printed with {@code %lf}: 6 decimals. */
    private static final double JSON_STEP = 1e-6;

    private static final int MAX_ROW_PROBLEMS = 5;

    private NcclTestsJson() {
    }

    /** True when {@code doc} looks like nccl-tests' JSON rather than cctk's. */
    public static boolean is(final Object doc) {
        return doc instanceof Map<?, ?> m && m.get("results") instanceof List && m.get("config") instanceof Map
            && !m.containsKey("rows");
    }

    /** The measurements of an nccl-tests JSON document; problems name what could not be read. */
    public static List<Result> read(final Path file, final Map<?, ?> doc, final List<String> problems,
                             final UnaryOperator<String> names) {
        final Map<?, ?> config = (Map<?, ?>) doc.get("config");
        final String program = doc.get("args") instanceof List<?> a && !a.isEmpty() && a.get(0) instanceof String s
            ? s : null;
        final String coll = NcclTests.collective(program) != null ? NcclTests.collective(program)
            : NcclTests.collective(file.getFileName().toString());
        final long world = world(config);
        if (coll == null || world < 1 || world > Column.MAX_WORLD) {
            problems.add(file + ": nccl-tests JSON " + (coll == null ? "whose args[0] names no *_perf test"
                : "without devices, nthreads and ngpus, so its world size is unknown") + "; skipped");
            return List.of();
        }
        final List<RankInfo> ranks = new ArrayList<>();
        if (config.get("devices") instanceof List<?> devices) {
            for (final Object d : devices) {
                if (d instanceof Map<?, ?> m && m.get("hostname") instanceof String host && ranks.size() < 1 << 14) {
                    ranks.add(new RankInfo(ranks.size(), names.apply(Printable.of(host)), whole(m.get("pid")), 0, 0,
                        Printable.of(String.valueOf(m.get("device_info"))), ""));
                }
            }
        }
        final Map<String, Object> args = new LinkedHashMap<>();
        if (config.get("iterations") instanceof Long n && n > 0) {
            args.put("iters", n);
        }
        if (config.get("warmup_iters") instanceof Long n && n >= 0) {
            args.put("warmup_iters", n);
        }
        final Map<String, String> env = new LinkedHashMap<>();
        if (doc.get("env") instanceof List<?> e) {
            for (final Object o : e) {
                if (o instanceof String kv && kv.startsWith("NCCL_") && kv.indexOf('=') > 0 && env.size() < 256) {
                    env.put(Printable.of(kv.substring(0, kv.indexOf('='))), Printable.of(kv.substring(kv.indexOf('=')
                        + 1)));
                }
            }
        }
        final String version = doc.get("nccl_version") instanceof Long v ? "nccl-tests (NCCL " + v + ")" : null;
        final Run run = new Run(Printable.of(file.toString()), version, null, null, null, NcclTests.BACKEND,
            (int) world, NcclTests.start(doc.get("start_time") instanceof String s ? s : null), ranks,
            Run.hostsOf(ranks), env, args, List.of(), null, null);
        return rows(file, (List<?>) doc.get("results"), run, names.apply(coll), problems, names);
    }

    private static List<Result> rows(final Path file, final List<?> results, final Run run, final String coll,
                                     final List<String> problems, final UnaryOperator<String> names) {
        final List<Result> out = new ArrayList<>();
        int bad = 0;
        for (int i = 0; i < results.size(); i++) {
            try {
                if (!(results.get(i) instanceof Map<?, ?> r)) {
                    throw new IllegalArgumentException("is not an object");
                }
                out.addAll(row(r, run, coll, names));
            } catch (final IllegalArgumentException e) {
                if (++bad <= MAX_ROW_PROBLEMS) {
                    problems.add(file + ": results[" + i + "] " + Printable.of(e.getMessage()) + "; skipped, the"
                        + " rest kept");
                }
            }
        }
        if (bad > MAX_ROW_PROBLEMS) {
            problems.add(file + ": " + (bad - MAX_ROW_PROBLEMS) + " more bad results skipped");
        }
        if (results.isEmpty()) {
            problems.add(file + ": nccl-tests JSON with no results (the test did not run?)");
        }
        return out;
    }

    private static List<Result> row(final Map<?, ?> r, final Run run, final String coll,
                                    final UnaryOperator<String> names) {
        final long size = Checks.whole("size", r.get("size") instanceof Number n ? n : -1, 0, 1L << 53);
        final long count = Checks.whole("count", r.get("count") instanceof Number n ? n : -1, 0, 1L << 53);
        if (!(r.get("type") instanceof String type)) {
            throw new IllegalArgumentException("type is missing");
        }
        final String op = r.get("redop") instanceof String o ? NcclTests.op(o) : null;
        final String rootText = r.get("root") instanceof String s ? s.strip() : String.valueOf(r.get("root"));
        final int root = rootText.matches("-?\\d{1,8}") ? Math.max(-1, Integer.parseInt(rootText)) : -1;
        final List<Result> out = new ArrayList<>();
        for (final boolean inPlace : new boolean[] {false, true}) {
            final String key = inPlace ? "in_place" : "out_of_place";
            if (r.get(key) instanceof Map<?, ?> g && g.get("time") instanceof Number t) {
                final double time = Checks.finite("time", t.doubleValue());
                if (!(time > 0)) {
                    throw new IllegalArgumentException(key + ".time " + time + " is not above 0");
                }
                final Map<?, ?> it = r.get(key + "_per_iter") instanceof Map<?, ?> m ? m : Map.of();
                final long wrong = g.get("nwrong") instanceof Number w ? Math.max(0, Math.round(w.doubleValue())) : -1;
                final double[] bw = NcclTests.bandwidths(coll, run.world(), size, time, bw(key, g.get("alg_bw")),
                    bw(key, g.get("bus_bw")), JSON_STEP, JSON_STEP);
                out.add(new Result(run, coll, names.apply(Printable.of(NcclTests.dtype(type))), op == null ? null
                    : names.apply(Printable.of(op)), root, size, count, inPlace, time, num(it.get("min_us")),
                    num(it.get("p50_us")), num(it.get("p99_us")), num(it.get("cv_pct")), bw[0], bw[1], wrong, null));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("has no measured time (nccl-tests writes NaN as \"nan\")");
        }
        return out;
    }

    private static double bw(final String key, final Object v) {
        if (!(v instanceof Number n)) {
            throw new IllegalArgumentException(key + " lacks a bandwidth");
        }
        final double d = Checks.finite("bandwidth", n.doubleValue());
        if (d < 0) {
            throw new IllegalArgumentException(key + " bandwidth " + d + " is below 0");
        }
        return d;
    }

    private static double num(final Object v) {
        return v instanceof Number n && Double.isFinite(n.doubleValue()) && n.doubleValue() >= 0 ? n.doubleValue()
            : Double.NaN;
    }

    private static long whole(final Object v) {
        return v instanceof Long l && l >= 0 ? l : 0;
    }

    /** Processes in the first device's group times threads times GPUs; 0 when unknown. */
    private static long world(final Map<?, ?> config) {
        if (!(config.get("devices") instanceof List<?> devices) || devices.isEmpty()
            || !(devices.get(0) instanceof Map<?, ?> first)) {
            return 0;
        }
        final Object group = first.get("group");
        final long procs = devices.stream().filter(d -> d instanceof Map<?, ?> m && java.util.Objects.equals(
            m.get("group"), group)).count();
        final long threads = config.get("nthreads") instanceof Long t && t > 0 && t < 1 << 20 ? t : 1;
        final long gpus = config.get("ngpus") instanceof Long g && g > 0 && g < 1 << 20 ? g : 1;
        return procs * threads * gpus;
    }
}
