package cctk.report;

import cctk.results.Line;
import cctk.results.Result;
import cctk.results.ResultFiles;
import cctk.results.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Result files as {@code cctk run} writes them ({@link ResultFiles}), of chosen busbw per size, and the report
 * that {@code cctk report} makes of them, in-process.
 */
final class ClaimRuns {

    private ClaimRuns() {
    }

    /** The arguments a run records (as {@code cctk run}'s JSON does), with these settings. */
    static Map<String, Object> args(final long iters, final long warmup, final long repeats) {
        final Map<String, Object> a = new LinkedHashMap<>();
        a.put("warmup_iters", warmup);
        a.put("iters", iters);
        a.put("repeats", repeats);
        a.put("alltoallv", new LinkedHashMap<>(Map.of("spread", 4.0)));
        a.put("retime", true);
        a.put("window_ms", 0L);
        return a;
    }

    /** A run's header: backend, world, start (names the files), settings. */
    static Run run(final String backend, final int world, final String start, final Map<String, Object> args) {
        return new Run(null, "0.1.0", null, "local-" + world + "-" + start.hashCode(), "local", backend, world, start,
            List.of(), List.of("vm"), Map.of(), args, List.of(), null, null);
    }

    /**
     * Writes {@code run}'s files into {@code dir}: all_reduce float32 sum out-of-place at {@code sizes}, busbw
     * {@code busbw[i]} (its time follows from the all-reduce factor), spread between repeats {@code spreadPct}.
     */
    static void write(final Path dir, final Run run, final long[] sizes, final double[] busbw,
                      final double spreadPct) {
        final ResultFiles files = ResultFiles.create(dir, run);
        for (int i = 0; i < sizes.length; i++) {
            files.add(new Line("AllReduce", sizes[i], 4, List.of(point(files.run(), "all_reduce", sizes[i],
                busbw[i], spreadPct))));
        }
        files.finish(null);
    }

    /** One measured point with its repeats' spread. */
    static Result point(final Run run, final String coll, final long size, final double busbw,
                        final double spreadPct) {
        final double factor = coll.equals("all_reduce") ? 2.0 * (run.world() - 1) / run.world() : 1;
        final double alg = busbw / factor;
        final double time = size / alg / 1e3;
        final Result.Obtained how = new Result.Obtained(3, 20, 3, spreadPct, time * (1 - spreadPct / 200),
            time * (1 + spreadPct / 200), time, null);
        return new Result(run, coll, "float32", coll.equals("all_reduce") ? "sum" : null, -1, size, size / 4, false,
            time, time * 0.95, time, time * 1.1, 3, alg, busbw, 0, null, how);
    }

    /** Doubling sizes from {@code first}, {@code n} of them. */
    static long[] doubling(final long first, final int n) {
        final long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = first << i;
        }
        return out;
    }

    /** Runs {@code cctk report} on {@code inputs} into {@code out}; its analysis.txt. */
    static String report(final Path out, final Path... inputs) throws java.io.IOException {
        final List<String> args = new ArrayList<>(List.of("report"));
        for (final Path p : inputs) {
            args.add(p.toString());
        }
        args.addAll(List.of("-o", out.toString()));
        final Hostile.Outcome r = Hostile.cli(args.toArray(String[]::new));
        if (r.code() != 0) {
            throw new AssertionError("cctk report failed: " + r.out() + r.err());
        }
        return Files.readString(out.resolve("analysis.txt"));
    }
}
