package cctk.cli;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.Printable;
import cctk.report.DiagnosisRecord;
import cctk.report.ReportWriter;
import cctk.results.inputs.ResultReader;
import cctk.results.ResultSet;
import cctk.results.judge.Verdict;
import cctk.spec.MessageSize;
import cctk.spec.Sizes;
import cctk.spec.SpecParser;
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
        description = {"Combine result files (profile_*.csv/.json, nccl-tests' output as *.txt/*.log/*.out or its -J "
            + "JSON, or directories holding them: several backends, world sizes, runs or clusters) into one report "
            + "directory: combined.csv, full_results.md, "
            + "summary_by_config.md, analysis.txt (plateau busbw, crossovers, ratios over common sizes, noisy sizes, a "
            + "conclusion), plots/*.png (time and busbw vs size per collective and type, one colour per run; a "
            + "comparison at the measured size nearest to --at) and a self-contained report.html. A report into a "
            + "directory that holds one replaces the plots it made.",
            "References (expected busbw per collective and size range) are judged on the median busbw of the sizes "
            + "in their range and printed as PASS/FAIL: those of --spec when given, else those the runs recorded "
            + "from their spec's 'references:'.",
            "An input that cannot be read (truncated, another tool's file, other units, an empty directory) is "
            + "named on stderr and the report is made from the rest."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:report written, every reference passed", "1:a reference FAILED (or was NOT MEASURED)",
            "2:bad usage, no readable results, an input skipped (the report is still written), or inputs past the"
                + " limits (files, measurements; see docs/reports.md)",
            "3:the report directory could not be written, or the inputs did not fit the Java heap (-Xmx)"})
final class ReportCommand implements Callable<Integer> {

    /** The largest --cv-limit: a coefficient of variation may exceed 100 %, but not by this much. */
    static final double MAX_CV_LIMIT = 100_000;

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

    @Option(names = "--nccl-tests", description = "Also write every run in nccl-tests' text layout (one file per run "
        + "in DIR/nccl-tests/, one test per collective), for parsers of nccl-tests logs.")
    boolean ncclTests;

    @Option(names = "--cv-limit", paramLabel = "PCT", defaultValue = "20",
            description = "List measurements whose variation exceeds PCT %% as outliers (default: ${DEFAULT-VALUE}).")
    double cvLimit;

    @Override
    public Integer call() {
        try {
            return report();
        } catch (final OutOfMemoryError e) {
            throw outOfMemory("report on");
        }
    }

    /**
     * The error when the inputs do not fit the JVM's heap: exit 3, as the heap is the environment's limit (the
     * inputs are within cctk's own limits, or reading would have stopped with exit 2 first).
     */
    static CctkException outOfMemory(final String what) {
        return CctkException.environment("cctk ran out of memory (a heap of "
            + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB) to " + what + " these results. Give Java more"
            + " with -Xmx (e.g. CCTK_JAVA_OPTS=-Xmx4g ./cctk ...), or name fewer or smaller inputs.");
    }

    private Integer report() {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final long atBytes = size(at);
        if (!(cvLimit >= 0 && cvLimit <= MAX_CV_LIMIT)) {
            throw CctkException.usage("--cv-limit is a percentage from 0 to " + (int) MAX_CV_LIMIT + ", such as 20;"
                + " found " + cvLimit + ".");
        }
        inputs.forEach(p -> decodable("RESULTS", p));
        decodable("-o/--output", output);
        final var refs = specFile == null ? null : SpecParser.parse(specFile).references();
        final List<Path> diagnoses = Diagnoses.in(inputs);
        final List<Path> results = inputs.stream().filter(p -> !DiagnosisRecord.named(p)).toList();
        final ResultSet set = ResultReader.read(results, output);
        set.problems().forEach(p -> err.println("cctk: " + p));
        err.flush();
        Diagnoses.write(diagnoses, output, out);
        if (set.results().isEmpty() && !diagnoses.isEmpty()) {
            return set.problems().isEmpty() ? ExitCode.OK.code() : ExitCode.USAGE.code();
        }
        // a file that was found but not read (an nccl-tests layout cctk does not know) is explained above; running
        // cctk is advice only where no result file was found at all
        if (set.results().isEmpty() && set.problems().stream().anyMatch(p -> !p.endsWith(" in this directory")
            && !p.endsWith(": no such file or directory"))) {
            throw CctkException.usage("no results to report: none of " + Printable.of(inputs.toString()) + " held a"
                + " result cctk could read (cctk's profile_*.csv or .json, nccl-tests' text or -J JSON); why is"
                + " said above, file by file.");
        }
        if (set.results().isEmpty()) {
            throw CctkException.usage("no results to report: none of " + Printable.of(inputs.toString()) + " held a"
                + " readable cctk result (profile_*.csv or .json). Run 'cctk run SPEC' first, or name the results"
                + " directory.");
        }
        final ReportWriter.Report report = ReportWriter.write(set, refs, atBytes, cvLimit, output, ncclTests);
        final String dir = Printable.of(output.toString());
        out.println("cctk: report of " + set.runs().size() + (set.runs().size() == 1 ? " run in " : " runs in ")
            + dir + " (" + report.files().size()
            + " files; open " + Printable.of(output.resolve("report.html").toString()) + ")");
        for (final cctk.results.Run r : set.runs()) {
            if (!r.complete() && r.error() != null) {
                out.println("cctk: " + Printable.of(set.nameOf(r)) + " stopped early: " + Printable.of(r.error()));
            }
        }
        for (final Verdict v : report.verdicts()) {
            out.println(Printable.of(v.line()));
        }
        out.flush();
        if (report.verdicts().stream().anyMatch(v -> !v.pass())) {
            return ExitCode.FAILED.code();
        }
        return set.problems().isEmpty() ? ExitCode.OK.code() : ExitCode.USAGE.code();
    }

    /**
     * Refuses a path argument that the Java launcher could not decode (it reads arguments in the locale's
     * encoding and puts U+FFFD for bytes that are not valid there): cctk would open or create another name.
     */
    static void decodable(final String what, final Path p) {
        if (p.toString().indexOf('\uFFFD') >= 0) {
            throw CctkException.usage(what + " '" + Printable.of(p.toString()) + "' is not valid UTF-8 text in this"
                + " locale (" + System.getProperty("sun.jnu.encoding") + "): its undecodable bytes became U+FFFD, so"
                + " cctk would read or create another name. Rename it to UTF-8 (e.g. with convmv), or run under a"
                + " UTF-8 locale such as LANG=C.UTF-8.");
        }
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
