package cctk.cli;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.Printable;
import cctk.report.Comparison;
import cctk.results.Numbers;
import cctk.results.Result;
import cctk.results.ResultReader;
import cctk.results.ResultSet;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cctk compare BASE NEW}: per collective and size, how NEW's speed compares with BASE's. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compare two runs (result files or directories; a report's combined.csv works too): "
            + "measurements are matched on backend, world size, collective, type, operator, layout and size, and "
            + "the ratio NEW/BASE of busbw is printed (of 1/time for barrier), so above 1 is faster. A ratio below "
            + "1 - tolerance is REGRESSED, above 1 + tolerance IMPROVED, but only when it also lies beyond the "
            + "combined spread of the two measurements (cv between iterations, or mean against median, widened for "
            + "few iterations, and the scatter of repeated runs when BASE or NEW holds several) and the medians and "
            + "every repeat agree; otherwise it is 'within noise'. nccl-tests' "
            + "output (text or -J JSON) is read too; when one side holds only nccl-tests runs and the other none, "
            + "they are matched without the backend."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:no regression", "1:at least one REGRESSED measurement",
            "2:bad usage, nothing to compare (no readable results, or no measurement in common), or an input"
                + " skipped in whole or part (named on stderr; the rest is compared)",
            "3:the inputs did not fit the Java heap (-Xmx)"})
final class CompareCommand implements Callable<Integer> {

    private static final String FORMAT = "%-14s %-10s %-12s %-12s %-10s %10s %10s %-4s %8s %7s  %s";

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "BASE", description = "The reference run: result file or directory.")
    Path base;

    @Parameters(index = "1", paramLabel = "NEW", description = "The run to judge: result file or directory.")
    Path next;

    @Option(names = "--tolerance", paramLabel = "FRACTION", defaultValue = "0.1",
            description = "Relative change that counts (default: ${DEFAULT-VALUE}, i.e. 10%%).")
    double tolerance;

    @Option(names = "--min-size", paramLabel = "SIZE", defaultValue = "1B",
            description = "Compare only sizes of at least SIZE, e.g. 1MiB to leave out latency-bound noise.")
    String minSize;

    @Option(names = "--all", description = "Print every matched measurement, not only the flagged ones.")
    boolean all;

    @Override
    public Integer call() {
        try {
            return compare();
        } catch (final OutOfMemoryError e) {
            throw ReportCommand.outOfMemory("compare");
        }
    }

    private Integer compare() {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        if (!(tolerance >= 0 && tolerance < 1)) {
            throw CctkException.usage("--tolerance is a fraction from 0 to below 1, such as 0.1; found " + tolerance
                + ".");
        }
        final long min = ReportCommand.size(minSize);
        ReportCommand.decodable("BASE", base);
        ReportCommand.decodable("NEW", next);
        final ResultSet b = ResultReader.read(List.of(base));
        final ResultSet n = ResultReader.read(List.of(next));
        b.problems().forEach(p -> err.println("cctk: " + p));
        n.problems().forEach(p -> err.println("cctk: " + p));
        err.flush();
        final Comparison c = Comparison.of(b, n, tolerance, min);
        if (c.changes().isEmpty()) {
            throw CctkException.usage("nothing to compare: " + Printable.of(base.toString()) + " and "
                + Printable.of(next.toString()) + " have no measurement in common (same backend, world size,"
                + " collective, type, operator, layout and size).");
        }
        if (c.acrossBackend()) {
            out.println("cctk: one side holds only nccl-tests runs, the other none; measurements are matched"
                + " without the backend");
        }
        out.println(String.format(FORMAT, "collective", "run", "dtype", "layout", "size", "base", "new", "unit",
            "new/base", "spread", "flag"));
        for (final Comparison.Change ch : c.changes()) {
            if (all || ch.flag() != Comparison.Flag.SAME) {
                out.println(Printable.of(line(ch)));
            }
        }
        final long unknown = c.changes().stream().filter(ch -> ch.flag() == Comparison.Flag.REGRESSED
            || ch.flag() == Comparison.Flag.IMPROVED).filter(Comparison.Change::spreadUnknown).count();
        out.println("cctk: " + c.changes().size() + " compared (a change counts beyond " + Numbers.fixed(
            tolerance * 100, 0) + "% and beyond the spread): " + c.count(Comparison.Flag.REGRESSED) + " regressed, "
            + c.count(Comparison.Flag.IMPROVED) + " improved, " + c.count(Comparison.Flag.NOISE) + " within noise; "
            + c.onlyBase() + " only in BASE, " + c.onlyNew() + " only in NEW" + (unknown == 0 ? "" : "; " + unknown
            + " verdicts rest on the tolerance alone (no spread recorded: nccl-tests without -I 1?)")
            + repeats(c));
        out.flush();
        if (c.count(Comparison.Flag.REGRESSED) > 0) {
            return ExitCode.FAILED.code();
        }
        return b.problems().isEmpty() && n.problems().isEmpty() ? ExitCode.OK.code() : ExitCode.USAGE.code();
    }

    /** "; repeats: 2 runs of BASE, 3 of NEW" when a side held several runs of the measurements. */
    private static String repeats(final Comparison c) {
        final int b = c.changes().stream().mapToInt(ch -> ch.runs()[0]).max().orElse(1);
        final int n = c.changes().stream().mapToInt(ch -> ch.runs()[1]).max().orElse(1);
        return b == 1 && n == 1 ? "" : "; repeats: up to " + b + " runs of BASE and " + n + " of NEW per measurement,"
            + " compared by their medians, their scatter counted in the spread";
    }

    private static String line(final Comparison.Change ch) {
        final Result r = ch.base();
        final boolean data = Double.isFinite(r.busBw()) && Double.isFinite(ch.next().busBw());
        return String.format(FORMAT, r.collective(), r.run().shortName(), Objects.toString(r.dtype(), "-")
            + (r.op() == null ? "" : " " + r.op()), r.layout(), Numbers.size(r.sizeBytes()),
            Numbers.fit(data ? r.busBw() : r.timeUs(), 10), Numbers.fit(data ? ch.next().busBw()
            : ch.next().timeUs(), 10), data ? "GB/s" : "us", Numbers.fit(ch.ratio(), 7) + "x",
            ch.spreadUnknown() ? "?" : "±" + Numbers.fixed(ch.spread() * 100, 0) + "%", ch.flag().text());
    }
}
