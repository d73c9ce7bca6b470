package cctk.cli;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.Printable;
import cctk.report.CompareVerdict;
import cctk.report.Comparison;
import cctk.results.Numbers;
import cctk.results.Result;
import cctk.results.inputs.ResultReader;
import cctk.results.ResultSet;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cctk compare BASE NEW}: per collective and size, how NEW's speed compares with BASE's, and as a whole. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compare two runs (result files or directories; a report's combined.csv works too; a "
            + "directory of repeated runs of one spec is best): measurements are matched on backend, world size, "
            + "collective, type, operator, layout and size, and the ratio NEW/BASE of speed is printed, judged on "
            + "time (BASE's over NEW's), so above 1 is faster; sizes below 64 KiB are shown as times in us.",
            "Noise: where a side holds several runs of a measurement, their scatter and the spread between the "
            + "repeats of each row are its noise, and a run far from the others across most measurements (3 runs "
            + "or more) is left out with a note. A single run whose rows are medians of repeats counts twice "
            + "its spread between repeats, at least 15%%; a single run without repeats counts the spread between its "
            + "iterations, at least 25%%, as runs differ more than iterations do: such verdicts rest on within-run "
            + "spread only and are conservative.",
            "A ratio is REGRESSED or IMPROVED only beyond the tolerance and beyond the combined noise of both sides, "
            + "when the median iterations agree and every run of NEW lies beyond every run of BASE; otherwise it is "
            + "'within noise'. The whole comparison is judged too: when a sign test over all cells (p < 0.01, 6 "
            + "cells or more) finds them slower and their median ratio lies beyond the tolerance and the typical "
            + "noise, the whole run regressed even where no single cell is flagged.",
            "The machine: every cctk row carries rank 0's 1 MiB round trip between two cores, read right after its "
            + "size was measured (a size during which it moved more than 2x is measured again). A cell whose rows came "
            + "in both of the machine's modes is compared on the rows of the mode both sides hold. A cell that moved "
            + "beyond the tolerance while its two sides' readings lie more than 2x apart is 'machine moved' and not "
            + "judged; when at least two cells and half of all are so, or cells moved beyond noise "
            + "both ways, the machine changed and the runs are not comparable (for files whose rows carry no "
            + "reading: when cells moved while the runs' readings before and after their sweeps lie more than 2x "
            + "apart).",
            "nccl-tests' output (text or -J JSON) is read too; when one side holds only nccl-tests runs and the "
            + "other none, they are matched without the backend."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:no regression (no cell REGRESSED, the whole run not slower)",
            "1:a regression: a REGRESSED measurement, or the whole run slower by the sign test; or the machine"
                + " changed (the runs are not comparable)",
            "2:bad usage, nothing to compare (no readable results, or no measurement in common), or an input"
                + " skipped in whole or part (named on stderr; the rest is compared)",
            "3:the inputs did not fit the Java heap (-Xmx)"})
final class CompareCommand implements Callable<Integer> {

    private static final String FORMAT = "%-14s %-10s %-12s %-12s %-10s %10s %10s %-4s %8s %7s  %s";
    /** Below this size a measurement is shown by its time, as its busbw rounds to nothing. */
    private static final long LATENCY_BYTES = 64 << 10;

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
            description = "Compare only sizes of at least SIZE, e.g. 1MiB to leave out latency-bound sizes "
                + "(default: ${DEFAULT-VALUE}: every size but the 0 B of a barrier; 0B compares barriers too).")
    String minSize;

    @Option(names = "--all", description = "Print a line for every matched measurement; by default only for those"
            + " that changed by more than the tolerance (REGRESSED, IMPROVED or within noise). The closing counts"
            + " cover all either way.")
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
        c.notes().forEach(note -> out.println(Printable.of("cctk: note: " + note)));
        out.println(String.format(FORMAT, "collective", "run", "dtype", "layout", "size", "base", "new", "unit",
            "new/base", "noise", "flag"));
        for (final Comparison.Change ch : c.changes()) {
            if (all || ch.flag() != Comparison.Flag.SAME) {
                out.println(Printable.of(line(ch)));
            }
        }
        out.println("cctk: " + c.changes().size() + " compared (a change counts beyond " + Numbers.fixed(
            tolerance * 100, 0) + "% and beyond the noise): " + c.count(Comparison.Flag.REGRESSED) + " regressed, "
            + c.count(Comparison.Flag.IMPROVED) + " improved, " + c.count(Comparison.Flag.NOISE) + " within noise, "
            + c.count(Comparison.Flag.MACHINE) + " not judged (the machine moved); "
            + c.onlyBase() + " only in BASE, " + c.onlyNew() + " only in NEW" + repeats(c));
        out.println("cctk: noise: " + basis(c));
        out.println("cctk: whole: " + c.whole().text());
        out.flush();
        // the machine changed: some measurements regressed beyond their noise (named above) while others improved; a
        // regression all the same, whose cause may be the machine rather than the code (the whole line says so)
        if (c.regressed() || c.whole().kind() == CompareVerdict.Kind.MACHINE_CHANGED) {
            return ExitCode.FAILED.code();
        }
        return b.problems().isEmpty() && n.problems().isEmpty() ? ExitCode.OK.code() : ExitCode.USAGE.code();
    }

    /** "; repeats: up to 2 runs of BASE and 3 of NEW ..." when a side held several runs of the measurements. */
    private static String repeats(final Comparison c) {
        final int b = c.changes().stream().mapToInt(ch -> ch.runs()[0]).max().orElse(1);
        final int n = c.changes().stream().mapToInt(ch -> ch.runs()[1]).max().orElse(1);
        return b == 1 && n == 1 ? "" : "; repeats: up to " + b + " runs of BASE and " + n + " of NEW per measurement,"
            + " compared by their medians, their scatter counted in the noise";
    }

    /** What the cells' noise bands rest on, plainly. */
    private static String basis(final Comparison c) {
        final List<String> parts = new ArrayList<>();
        for (final Comparison.Basis b : Comparison.Basis.values()) {
            final long n = c.count(b);
            if (n > 0) {
                parts.add(n + " " + b.text());
            }
        }
        final String text = String.join(", ", parts);
        return c.count(Comparison.Basis.RUNS) == c.changes().size() ? text : text + "; verdicts on single runs rest"
            + " on the spread within one run, which understates how runs differ, so they are conservative: give a"
            + " directory of 3 or more runs per side for firmer ones";
    }

    private static String line(final Comparison.Change ch) {
        final Result r = ch.base();
        final boolean data = r.sizeBytes() >= LATENCY_BYTES && r.busBw() > 0 && ch.next().busBw() > 0;
        return String.format(FORMAT, r.collective(), r.run().shortName(), Objects.toString(r.dtype(), "-")
            + (r.op() == null ? "" : " " + r.op()), r.layout(), Numbers.size(r.sizeBytes()),
            Numbers.fit(data ? r.busBw() : r.timeUs(), 10), Numbers.fit(data ? ch.next().busBw()
            : ch.next().timeUs(), 10), data ? "GB/s" : "us", Numbers.fit(ch.ratio(), 7) + "x",
            "±" + Numbers.fixed(ch.spread() * 100, 0) + "%", ch.flag().text());
    }
}
