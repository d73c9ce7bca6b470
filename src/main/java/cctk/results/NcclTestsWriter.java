package cctk.results;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Writes one cctk run in nccl-tests' text layout, so that parsers written for nccl-tests' logs read it: one test
 * per collective, in a row as a log of several {@code *_perf} binaries holds them, each with nccl-tests' header lines
 * ({@code # Collective test starting: all_reduce_perf}, {@code # nThread ...}, {@code # Using devices}, one
 * {@code #  Rank} line per rank), its table header, one row per size, type and operator ({@code size count type
 * redop root}, then {@code time algbw busbw #wrong} out-of-place and in-place, times in microseconds, numbers fitted
 * to nccl-tests' widths by its rule, {@link Numbers#fit}), and its footer ({@code # Out of bounds values},
 * {@code # Avg bus bandwidth}, {@code # Collective test concluded}). A {@code # cctk-run:} line (a comment to other
 * parsers) names the backend, world size and start, so {@code cctk report} reads the table back as the run it was.
 * Types and operators take nccl-tests' names ({@code float}, {@code none}); a layout that was not measured is left
 * blank (out-of-place) or cut (in-place), as nccl-tests does; a barrier, which moves no data, and skipped sizes are
 * left out. Times are cctk's: the mean per rank, then the maximum or the mean over ranks, as the marker line's
 * {@code time_across_ranks} says (nccl-tests itself averages over ranks by default, its {@code -a 1}).
 * <b>Note:</b> threadsafe (no state).
 */
public final class NcclTestsWriter {

    private static final String PREAMBLE = "%12s  %12s  %8s  %6s  %6s";
    private static final String GROUP = "  %7s  %6s  %6s  %6s";

    private NcclTestsWriter() {
    }

    /** Writes {@code run}'s measurements ({@code results}, in their order) as nccl-tests would print them. */
    public static void write(final Run run, final List<Result> results, final Writer w) throws IOException {
        final Map<String, List<Result>> byColl = new LinkedHashMap<>();
        for (final Result r : results) {
            if (r.measured() && r.dtype() != null && Double.isFinite(r.busBw())) {
                byColl.computeIfAbsent(r.collective(), k -> new ArrayList<>()).add(r);
            }
        }
        for (final Map.Entry<String, List<Result>> e : byColl.entrySet()) {
            test(run, e.getKey(), e.getValue(), w);
        }
    }

    private static void test(final Run run, final String coll, final List<Result> rs, final Writer w)
        throws IOException {
        final String program = NcclTests.program(safe(coll));
        final long min = rs.stream().mapToLong(Result::sizeBytes).min().orElse(0);
        final long max = rs.stream().mapToLong(Result::sizeBytes).max().orElse(0);
        line(w, "# Collective test starting: " + program);
        line(w, "# cctk-run: backend=" + safe(run.backend()) + " world=" + run.world() + " start="
            + safe(Objects.toString(run.start(), "")) + " cluster=" + safe(Objects.toString(run.cluster(), ""))
            + " job=" + safe(Objects.toString(run.jobId(), "")) + " version=" + safe(Objects.toString(run.version(),
            "")) + " time_across_ranks=" + safe(Objects.toString(run.args().get(Run.TIME_ACROSS_RANKS), "")));
        line(w, "# nThread 1 nGpus 1 minBytes " + min + " maxBytes " + max + " step: " + step(rs)
            + " warmup iters: " + arg(run, "warmup_iters") + " iters: " + arg(run, "iters")
            + " agg iters: 1 validation: " + (rs.stream().anyMatch(r -> r.wrong() >= 0) ? 1 : 0) + " graph: 0");
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
        line(w, String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s",
            "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw",
            "#wrong"));
        line(w, String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s",
            "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", ""));
        long wrong = 0;
        double bw = 0;
        int n = 0;
        for (final Result[] row : rows(rs)) {
            final Result any = row[0] != null ? row[0] : row[1];
            final StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, PREAMBLE, any.sizeBytes(),
                any.count(), safe(NcclTests.typeName(any.dtype())), any.op() == null ? "none" : safe(any.op()),
                Integer.toString(any.root())));
            sb.append(row[0] == null ? " ".repeat(32) : group(row[0]));
            if (row[1] != null) {
                sb.append(group(row[1]));
            }
            line(w, sb.toString());
            for (final Result r : row) {
                if (r != null) {
                    wrong += Math.max(0, r.wrong());
                    bw += r.busBw();
                    n++;
                }
            }
        }
        line(w, String.format(Locale.ROOT, "# %-20s : %d %s", "Out of bounds values", wrong, wrong == 0 ? "OK"
            : "FAILED"));
        line(w, String.format(Locale.ROOT, "# %-20s : %s ", "Avg bus bandwidth", Numbers.general(n == 0 ? 0
            : bw / n)));
        line(w, "#");
        line(w, "# Collective test concluded: " + program);
        line(w, "");
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

    private static String group(final Result r) {
        return String.format(Locale.ROOT, GROUP, Numbers.fit(r.timeUs(), 7), Numbers.fit(r.algBw(), 6),
            Numbers.fit(r.busBw(), 6), r.wrong() < 0 ? "N/A" : Numbers.general(r.wrong()));
    }

    /** {@code 2(factor)} when the sizes grow by one whole factor, else {@code 0(bytes)}. */
    private static String step(final List<Result> rs) {
        final long[] sizes = rs.stream().mapToLong(Result::sizeBytes).distinct().sorted().toArray();
        if (sizes.length < 2 || sizes[0] == 0 || sizes[1] % sizes[0] != 0) {
            return "0(bytes)";
        }
        final long f = sizes[1] / sizes[0];
        for (int i = 1; i < sizes.length; i++) {
            if (sizes[i] != sizes[i - 1] * f) {
                return "0(bytes)";
            }
        }
        return f + "(factor)";
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
