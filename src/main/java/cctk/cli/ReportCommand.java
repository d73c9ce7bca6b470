package cctk.cli;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.analysis.ResultReader;
import cctk.analysis.ResultSet;
import cctk.analysis.Verdict;
import cctk.analysis.render.ReportWriter;
import cctk.spec.MessageSize;
import cctk.spec.SpecParser;
import cctk.spec.Sizes;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cctk report RESULTS...}: one report directory from any number of runs. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Combine result files (profile_*.csv/.json, or directories holding them: several backends, "
            + "world sizes, runs or clusters) into one report directory: combined.csv, full_results.md, "
            + "summary_by_config.md, analysis.txt (plateau busbw, crossovers, ratios, noisy sizes), plots/*.png "
            + "(time and busbw vs size per collective, a comparison at one size) and a self-contained report.html.",
            "References (expected busbw per collective and size range) are judged on the median busbw of the sizes "
            + "in their range and printed as PASS/FAIL: those of --spec when given, else those the runs recorded "
            + "from their spec's 'references:'.",
            "An input that cannot be read (truncated, another tool's file, other units, an empty directory) is "
            + "named on stderr and the report is made from the rest."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:report written, every reference passed", "1:a reference FAILED (or was NOT MEASURED)",
            "2:bad usage, no readable results, or an input skipped (the report is still written)",
            "3:the report directory could not be written"})
final class ReportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "RESULTS", description = "Result files or directories.")
    List<Path> inputs;

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", defaultValue = "report",
            description = "The report directory (default: ${DEFAULT-VALUE}).")
    Path output;

    @Option(names = "--spec", paramLabel = "SPEC", description = "Judge this spec's references instead of the "
        + "ones the runs recorded.")
    Path specFile;

    @Option(names = "--at", paramLabel = "SIZE", defaultValue = "100MiB",
            description = "Size of the comparison chart and table, e.g. 100MiB (default: ${DEFAULT-VALUE}).")
    String at;

    @Option(names = "--cv-limit", paramLabel = "PCT", defaultValue = "20",
            description = "List measurements whose variation exceeds PCT %% as outliers (default: ${DEFAULT-VALUE}).")
    double cvLimit;

    @Override
    public Integer call() {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final long atBytes = size(at);
        final var refs = specFile == null ? null : SpecParser.parse(specFile).references();
        final ResultSet set = ResultReader.read(inputs);
        set.problems().forEach(p -> err.println("cctk: " + p));
        err.flush();
        if (set.results().isEmpty()) {
            throw CctkException.usage("no results to report: none of " + inputs + " held a readable cctk result"
                + " (profile_*.csv or .json). Run 'cctk run SPEC' first, or name the results directory.");
        }
        final ReportWriter.Report report = ReportWriter.write(set, refs, atBytes, cvLimit, output);
        out.println("cctk: report of " + set.runs().size() + " runs in " + output + " (" + report.files().size()
            + " files; open " + output.resolve("report.html") + ")");
        for (final Verdict v : report.verdicts()) {
            out.println(v.line());
        }
        out.flush();
        if (report.verdicts().stream().anyMatch(v -> !v.pass())) {
            return ExitCode.FAILED.code();
        }
        return set.problems().isEmpty() ? ExitCode.OK.code() : ExitCode.USAGE.code();
    }

    /** A size with a byte unit, as specs write it. */
    static long size(final String text) {
        try {
            final MessageSize m = Sizes.parse(text);
            if (!m.elements()) {
                return m.value();
            }
        } catch (final IllegalArgumentException e) {
            // the message below says what is expected
        }
        throw CctkException.usage("expected a size with a byte unit such as 100MiB or 64KiB, found '" + text + "'.");
    }
}
