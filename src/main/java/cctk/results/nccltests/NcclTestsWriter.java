package cctk.results.nccltests;

import cctk.results.Numbers;
import cctk.results.RankInfo;
import cctk.results.Result;
import cctk.results.Run;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Writes one collective of a cctk run as its nccl-tests binary ({@code all_reduce_perf}) prints its table, so that
 * parsers written for nccl-tests' logs, which take one {@code *_perf} table per file, read it. The lines follow the
 * printf formats of nccl-tests release 2.19.6 (https://github.com/NVIDIA/nccl-tests, {@code src/util.cu}:
 * {@code writeDeviceReport}, {@code writeResultHeader}, {@code writeBenchmarkLinePreamble},
 * {@code writeBenchmarkLineBody}, {@code writeResultFooter}, {@code finalizeFooter}): {@code # Collective test
 * starting: all_reduce_perf}, {@code # nThread ... step: 2(factor) warmup iters: ... unalign: 0}, {@code #},
 * {@code # Using devices} and one {@code #  Rank} line per rank, {@code #}, the three header lines (the second and
 * third end in a space, as nccl-tests' timestamp column, empty, leaves them), one row per size, type and operator
 * ({@code %12li  %12li  %8s  %6s  %6s}, then {@code   %7s  %6s  %6s  %6s} out-of-place and in-place: time in
 * microseconds, algbw, busbw fitted to nccl-tests' widths by its rule, {@link Numbers#fit}, and {@code #wrong} or
 * {@code N/A}), and the footer ({@code # Out of bounds values}, {@code # Avg bus bandwidth} (the mean busbw of the
 * table's cells, {@code %g}), {@code #}, {@code # Collective test concluded}, {@code #} and an empty line).
 * <p>
 * What nccl-tests would print from its own machine is not invented: no {@code # nccl-tests version} line (it names
 * the NCCL library), and instead a {@code # cctk-run:} comment line, after the first, naming the backend, world
 * size and start, so that {@code cctk report} reads the table back as the run it was. Every row has the same 13
 * fields: a layout that was not measured (alltoallv has no in-place layout) prints {@code N/A} in its 4 cells. The
 * count column is nccl-tests' count: per peer for alltoall and alltoallv (size / type size / ranks, rounded down
 * to 16 bytes, as nccl-tests' {@code AlltoAllvGetCollByteCount} makes it), not cctk's largest total. Types and
 * operators take nccl-tests' names ({@code float}, {@code none}); a barrier, which moves no data, and skipped sizes
 * are left out. Times are cctk's (the mean per rank, the maximum over ranks).
 * <b>Note:</b> threadsafe (no state).
 */
public final class NcclTestsWriter {

    private static final String PREAMBLE = "%12s  %12s  %8s  %6s  %6s";
    private static final String GROUP = "  %7s  %6s  %6s  %6s";
    /** The column names' and the units' line; the last space is where a timestamp column ({@code -T}) would be. */
    private static final String HEADER = "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s ";
    /** nccl-tests' step when it was not given a factor: 1 MiB ({@code -i}'s default). */
    private static final long DEFAULT_STEP = 1 << 20;

    private NcclTestsWriter() {
    }

    /** The measurements a table can hold ({@link #write}), by collective, in first-seen order. */
    public static Map<String, List<Result>> byCollective(final List<Result> results) {
        final Map<String, List<Result>> byColl = new LinkedHashMap<>();
        for (final Result r : results) {
            if (r.measured() && r.dtype() != null && Double.isFinite(r.busBw())) {
                byColl.computeIfAbsent(r.collective(), k -> new ArrayList<>()).add(r);
            }
        }
        return byColl;
    }

    /** The name of the binary whose output a table of {@code collective} stands for: {@code all_reduce_perf}. */
    public static String program(final String collective) {
        return NcclTests.program(safe(collective));
    }

    /**
     * Writes {@code rs}, measurements of {@code run}'s collective {@code coll} (one list of {@link #byCollective}),
     * as nccl-tests' binary for it would print them.
     */
    public static void write(final Run run, final String coll, final List<Result> rs, final Writer w)
        throws IOException {
        final String program = program(coll);
        final long min = rs.stream().mapToLong(Result::sizeBytes).min().orElse(0);
        final long max = rs.stream().mapToLong(Result::sizeBytes).max().orElse(0);
        line(w, "# Collective test starting: " + program);
        line(w, "# cctk-run: backend=" + safe(run.backend()) + " world=" + run.world() + " start="
            + safe(Objects.toString(run.start(), "")) + " cluster=" + safe(Objects.toString(run.cluster(), ""))
            + " job=" + safe(Objects.toString(run.jobId(), "")) + " version=" + safe(Objects.toString(run.version(),
            "")) + " time_across_ranks=" + safe(Objects.toString(run.args().get(Run.TIME_ACROSS_RANKS), "")));
        line(w, "# nThread 1 nGpus 1 minBytes " + min + " maxBytes " + max + " step: " + step(rs)
            + " warmup iters: " + arg(run, "warmup_iters") + " iters: " + arg(run, "iters")
            + " agg iters: 1 validation: " + (rs.stream().anyMatch(r -> r.wrong() >= 0) ? 1 : 0)
            + " graph: 0 unalign: 0");
        line(w, "#");
        line(w, "# Using devices");
        if (run.ranks().isEmpty()) {
            for (int i = 0; i < run.world(); i++) {
                line(w, String.format(Locale.ROOT, "#  Rank %2d Group  0 Pid %6d on %10s device %2d [%s] %s", i, 0,
                    "unknown", i, "cctk", safe(run.backend())));
            }
        }
        for (final RankInfo r : run.ranks()) {
            line(w, String.format(Locale.ROOT, "#  Rank %2d Group  0 Pid %6d on %10s device %2d [%s] %s", r.rank(),
                r.pid(), safe(r.host()), r.localRank(), "cctk", safe(Objects.toString(r.device(), "cpu"))));
        }
        line(w, "#");
        line(w, String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s           out-of-place                 "
            + "      in-place          ", "", "", "", "", ""));
        line(w, String.format(Locale.ROOT, HEADER, "size", "count", "type", "redop", "root", "time", "algbw", "busbw",
            "#wrong", "time", "algbw", "busbw", "#wrong"));
        line(w, String.format(Locale.ROOT, HEADER, "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "",
            "(us)", "(GB/s)", "(GB/s)", ""));
        long wrong = 0;
        double bw = 0;
        int n = 0;
        for (final Result[] row : rows(rs)) {
            final Result any = row[0] != null ? row[0] : row[1];
            final StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, PREAMBLE, any.sizeBytes(),
                count(any, run.world()), safe(NcclTests.typeName(any.dtype())), any.op() == null ? "none"
                : safe(any.op()), Integer.toString(any.root())));
            for (final Result r : row) {
                sb.append(group(r));
                if (r != null) {
                    wrong += Math.max(0, r.wrong());
                    bw += r.busBw();
                    n++;
                }
            }
            line(w, sb.toString());
        }
        line(w, String.format(Locale.ROOT, "# %-20s : %d %s", "Out of bounds values", wrong, wrong == 0 ? "OK"
            : "FAILED"));
        line(w, String.format(Locale.ROOT, "# %-20s : %s ", "Avg bus bandwidth", Numbers.general(n == 0 ? 0
            : bw / n)));
        line(w, "#");
        line(w, "# Collective test concluded: " + program);
        line(w, "#");
        line(w, "");
    }

    /** nccl-tests' count: per peer for alltoall(v) (size / type size / ranks, whole 16 bytes), else cctk's. */
    private static long count(final Result r, final int world) {
        if (!"alltoallv".equals(r.collective()) || r.count() <= 0 || world < 1) {
            return r.count();
        }
        final long element = Math.max(1, r.sizeBytes() / r.count());
        final long perAlign = Math.max(1, 16 / element);
        return r.sizeBytes() / world / element / perAlign * perAlign;
    }

    /** Per size, type and operator, in first-seen order: the out-of-place and the in-place measurement (or null). */
    private static List<Result[]> rows(final List<Result> rs) {
        final Map<String, Result[]> rows = new LinkedHashMap<>();
        for (final Result r : rs) {
            final String key = r.dtype() + "|" + r.op() + "|" + r.root() + "|" + r.sizeBytes();
            rows.computeIfAbsent(key, k -> new Result[2])[r.inPlace() ? 1 : 0] = r;
        }
        return List.copyOf(rows.values());
    }

    /** A layout's 4 cells; {@code N/A} in each for one not measured (null). */
    private static String group(final Result r) {
        if (r == null) {
            return String.format(Locale.ROOT, GROUP, "N/A", "N/A", "N/A", "N/A");
        }
        return String.format(Locale.ROOT, GROUP, Numbers.fit(r.timeUs(), 7), Numbers.fit(r.algBw(), 6),
            Numbers.fit(r.busBw(), 6), r.wrong() < 0 ? "N/A" : Numbers.general(r.wrong()));
    }

    /**
     * nccl-tests' {@code step:}: {@code 2(factor)} when each size is a whole factor times the one before (within the
     * rounding a collective's layout makes, as alltoallv's 16-byte slices), {@code 1048576(bytes)} when they grow by
     * that many bytes (or there is one size: nccl-tests' default), else the factor that leads from the smallest to the
     * largest size in as many steps, rounded (at least 2).
     */
    private static String step(final List<Result> rs) {
        final long[] sizes = rs.stream().mapToLong(Result::sizeBytes).distinct().sorted().toArray();
        if (sizes.length < 2 || sizes[0] <= 0) {
            return DEFAULT_STEP + "(bytes)";
        }
        final long f = Math.round((double) sizes[1] / sizes[0]);
        boolean factor = f >= 2;
        final long d = sizes[1] - sizes[0];
        boolean bytes = true;
        for (int i = 1; i < sizes.length; i++) {
            factor &= Math.abs((double) sizes[i] / sizes[i - 1] / f - 1) < 0.01;
            bytes &= sizes[i] - sizes[i - 1] == d;
        }
        if (factor) {
            return f + "(factor)";
        }
        if (bytes) {
            return d + "(bytes)";
        }
        final double mean = Math.pow((double) sizes[sizes.length - 1] / sizes[0], 1.0 / (sizes.length - 1));
        return Math.max(2, Math.round(mean)) + "(factor)";
    }

    private static String arg(final Run run, final String key) {
        return run.args().get(key) instanceof Number n ? Long.toString(n.longValue()) : "0";
    }

    /** Text from data as one token of printable ASCII without spaces. */
    private static String safe(final String s) {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && sb.length() < 128; i++) {
            final char c = s.charAt(i);
            sb.append(c > ' ' && c < 127 ? c : '_');
        }
        return sb.length() == 0 ? "_" : sb.toString();
    }

    private static void line(final Writer w, final String s) throws IOException {
        w.write(s);
        w.write('\n');
    }
}
