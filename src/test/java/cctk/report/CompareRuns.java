package cctk.report;

import cctk.results.CsvOut;
import cctk.results.Result;
import cctk.results.ResultCsv;
import cctk.results.Run;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Simulated runs for {@code cctk compare}: tcp W=2, all_reduce and all_gather at 8 sizes from 4 B to 64 MiB (16
 * cells). Each row is the median of timed repeats, each repeat the cell's true time (20 us + size at 2 GB/s) times a
 * slowdown, times a level shared by the whole run and a factor of its own, both log-normal: a run differs from the
 * next by a little more than its repeats differ, as on a real machine.
 */
final class CompareRuns {

    static final long[] SIZES = {4, 1 << 10, 16 << 10, 64 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20};
    static final List<String> COLLECTIVES = List.of("all_reduce", "all_gather");

    private CompareRuns() {
    }

    /** The true time of a size, us. */
    static double truth(final long size) {
        return 20 + size / 2e3;
    }

    /**
     * One run's rows: {@code repeats} repeats per cell (1: no repeats recorded, the figure is one timed loop),
     * the run's level drawn with {@code runSigma}, each repeat with {@code sigma}, all times times {@code slow[i]} of
     * its cell (cells in collective, then size order; one value: for every cell).
     */
    static List<Result> run(final Run run, final Random rnd, final double runSigma, final double sigma,
                            final int repeats, final double... slow) {
        final double level = Math.exp(rnd.nextGaussian() * runSigma);
        final List<Result> out = new ArrayList<>();
        int cell = 0;
        for (final String c : COLLECTIVES) {
            for (final long size : SIZES) {
                final double[] t = new double[repeats];
                for (int i = 0; i < repeats; i++) {
                    t[i] = truth(size) * slow[Math.min(cell, slow.length - 1)] * level
                        * Math.exp(rnd.nextGaussian() * sigma);
                }
                out.add(row(run, c, size, t));
                cell++;
            }
        }
        return out;
    }

    /** A row of {@code run} whose repeats took {@code times} (one: a row without repeats). */
    static Result row(final Run run, final String collective, final long size, final double... times) {
        final double[] t = times.clone();
        Arrays.sort(t);
        final double time = t[t.length / 2];
        final double factor = "all_reduce".equals(collective) ? 2.0 * (run.world() - 1) / run.world()
            : (run.world() - 1.0) / run.world();
        final double alg = size / time / 1e3;
        final Result.Obtained how = t.length < 2 ? new Result.Obtained(1, 20, 1, Double.NaN, time, time, time, null)
            : new Result.Obtained(t.length, 20, t.length, (t[t.length - 1] - t[0]) / time * 100, t[0], t[t.length - 1],
            time, null);
        return new Result(run, collective, "float32", "sum", -1, size, size / 4, false, time, time * 0.97, time,
            time * 1.1, 3, alg, alg * factor, 0, null, how);
    }

    /**
     * Like {@code Csvs.allReduce}, with every column: one all_reduce float32 sum run without repeats, {@code busbw[i]}
     * at 2^(10 + 2i) bytes, time from size/busbw, cv 45 % at 4 KiB and 1 % elsewhere.
     */
    static Path allReduce(final Path dir, final String name, final String backend, final int world,
                          final double... busbw) throws IOException {
        final Run run = Run.bare(dir.resolve(name).toString(), backend, world);
        final List<Result> rows = new ArrayList<>();
        for (int i = 0; i < busbw.length; i++) {
            final long size = 1L << (10 + 2 * i);
            final double alg = busbw[i] / (2.0 * (world - 1) / world);
            final double time = size / alg / 1e3;
            rows.add(new Result(run, "all_reduce", "float32", "sum", -1, size, size / 4, false, time, time, time, time,
                i == 1 ? 45 : 1, alg, busbw[i], 0, null));
        }
        return write(dir, name, rows);
    }

    /** A bare tcp W=2 run read from {@code source}. */
    static Run bare(final String source) {
        return Run.bare(source, "tcp", 2);
    }

    /** Writes {@code rows} as a cctk CSV {@code dir/name}. */
    static Path write(final Path dir, final String name, final List<Result> rows) throws IOException {
        Files.createDirectories(dir);
        final Path file = dir.resolve(name);
        try (Writer w = Files.newBufferedWriter(file); CsvOut csv = ResultCsv.writer(w)) {
            ResultCsv.header(csv, false);
            rows.forEach(r -> ResultCsv.row(csv, r, false));
        }
        return file;
    }

    /** {@code n} runs written to {@code dir} as {@code r1.csv} .. {@code rn.csv}, made by {@code make}. */
    static Path runs(final Path dir, final int n, final java.util.function.Function<Run, List<Result>> make)
        throws IOException {
        for (int i = 1; i <= n; i++) {
            final Run r = bare(dir.resolve("r" + i + ".csv").toString());
            write(dir, "r" + i + ".csv", make.apply(r));
        }
        return dir;
    }
}
