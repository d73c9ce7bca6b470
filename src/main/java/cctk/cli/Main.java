package cctk.cli;

import cctk.CctkException;
import cctk.ExitCode;
import cctk.Printable;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The {@code cctk} command: wires subcommands, exit codes and error printing in one place. */
@Command(name = "cctk",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        header = "cctk - the cluster collective toolkit",
        description = "Measures how fast, and whether correctly, the GPUs and NICs of a cluster talk to each "
            + "other. A YAML job spec (configs/*.yaml) says what runs where; cctk renders it into an sbatch "
            + "script, submits it, runs the collectives on every rank (nccl on GPUs, tcp on CPUs over sockets) "
            + "and writes profile, CSV and JSON results. Without Slurm, 'cctk run' starts the ranks locally.",
        synopsisSubcommandLabel = "COMMAND",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:everything ran and every check passed",
            "1:a run or job failed: wrong results, a job that did not complete, a missed reference, a suspect",
            "2:bad input: a flag or a spec",
            "3:the environment failed: Slurm, NCCL, a peer, a port, memory",
            "4:an internal error in cctk (please report it)",
            "5:a diagnosis could not tell: too few nodes, or figures too scattered to judge"},
        footerHeading = "%nExamples:%n",
        footer = {
            "  cctk validate configs/*.yaml",
            "  cctk run configs/local.yaml",
            "  cctk render configs/perlmutter-4gpu.yaml",
            "  cctk submit configs/perlmutter-4gpu.yaml --wait",
            "  cctk diagnose configs/diagnose-4node.yaml"})
public final class Main {

    /**
     * The subcommands by name, in the order help lists them. A command line that names one builds only that one
     * (a rank's JVM reads no other command's annotations); anything else (help, a typo to suggest for) builds all.
     */
    private static final Map<String, Object> SUBCOMMANDS = subcommands();

    @Option(names = {"-x", "--stacktrace"}, scope = CommandLine.ScopeType.INHERIT,
            description = "Print the Java stack trace of an error (for bug reports).")
    boolean stacktrace;

    public static void main(final String[] args) {
        final PrintWriter out = new PrintWriter(System.out, true);
        final PrintWriter err = new PrintWriter(System.err, true);
        final int fast = RankFastPath.run(out, err, cctk.Environment.process(), args);
        System.exit(fast >= 0 ? fast : run(out, err, args));
    }

    /** Runs cctk in-process with the given streams and returns the exit code (what tests call). */
    public static int run(final PrintWriter out, final PrintWriter err, final String... args) {
        final CommandLine cl = commandLine(out, err, args);
        final int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    private static Map<String, Object> subcommands() {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("validate", ValidateCommand.class);
        m.put("render", RenderCommand.class);
        m.put("submit", SubmitCommand.class);
        m.put("status", StatusCommand.class);
        m.put("run", RunCommand.class);
        m.put("rank", RankCommand.class);
        m.put("report", ReportCommand.class);
        m.put("compare", CompareCommand.class);
        m.put("diagnose", DiagnoseCommand.class);
        m.put("demo", DemoCommand.class);
        m.put("help", CommandLine.HelpCommand.class);
        m.put("generate-completion", picocli.AutoComplete.GenerateCompletion.class);
        return m;
    }

    /** The command line with every subcommand. */
    static CommandLine commandLine(final PrintWriter out, final PrintWriter err) {
        return commandLine(out, err, new String[0]);
    }

    /** The command line for {@code args}: with only the subcommand they name, or with all (see SUBCOMMANDS). */
    static CommandLine commandLine(final PrintWriter out, final PrintWriter err, final String[] args) {
        final CommandLine cl = new CommandLine(new Main());
        String named = null;
        for (final String a : args) {
            if (!a.equals("-x") && !a.equals("--stacktrace")) {
                named = a;
                break;
            }
        }
        // help and the completion script read every subcommand
        final boolean lazy = named != null && !named.equals("help") && !named.equals("generate-completion")
                && SUBCOMMANDS.containsKey(named);
        for (final Map.Entry<String, Object> e : SUBCOMMANDS.entrySet()) {
            if (!lazy || e.getKey().equals(named)) {
                cl.addSubcommand(e.getKey(), e.getValue());
            }
        }
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler(Main::onException);
        cl.setExitCodeExceptionMapper(Main::exitCodeOf);
        cl.setParameterExceptionHandler(Main::onBadParameter);
        return cl;
    }

    /** Refuses a --timeout outside 1 s .. 1 day (usage error). */
    static void checkTimeout(final int seconds) {
        if (seconds < 1 || seconds > 86_400) {
            throw CctkException.usage("--timeout: expected 1 to 86400 seconds, found " + seconds + ".");
        }
    }

    /** {@code [--stacktrace]} when the user gave it, for the rank processes a command starts. */
    static List<String> stacktraceFlag(final CommandLine.Model.CommandSpec command) {
        final CommandLine.Model.OptionSpec o = command.findOption("--stacktrace");
        return o != null && Boolean.TRUE.equals(o.getValue()) ? List.of("--stacktrace") : List.of();
    }

    /**
     * An error message as it may reach a terminal: control characters other than newline and tab (ESC sequences
     * from a file name, a spec or Slurm's output) become '?', so no input can drive the user's terminal.
     */
    static String printable(final String message) {
        return Printable.message(message);
    }

    private static int exitCodeOf(final Throwable t) {
        if (t instanceof CctkException) {
            return ((CctkException) t).exitCode().code();
        }
        return t instanceof CommandLine.ParameterException ? ExitCode.USAGE.code() : ExitCode.INTERNAL.code();
    }

    private static int onException(final Exception ex, final CommandLine cl, final CommandLine.ParseResult pr) {
        final boolean trace = pr.hasMatchedOption("--stacktrace")
                || (pr.subcommand() != null && pr.subcommand().hasMatchedOption("--stacktrace"));
        return report(ex, cl.getErr(), trace);
    }

    /** An error as one paragraph on {@code err} (a trace with {@code trace}); returns its exit code. */
    static int report(final Exception ex, final PrintWriter err, final boolean trace) {
        if (ex instanceof CctkException) {
            err.println("cctk: " + printable(ex.getMessage()));
        } else {
            err.println("cctk: internal error: " + printable(String.valueOf(ex)) + ". This is a bug in cctk; run"
                    + " again with --stacktrace and report the trace.");
        }
        if (trace) {
            ex.printStackTrace(err);
        }
        err.flush();
        return exitCodeOf(ex);
    }

    private static int onBadParameter(final CommandLine.ParameterException ex, final String[] args) {
        final CommandLine cl = ex.getCommandLine();
        final PrintWriter err = cl.getErr();
        err.println("cctk: " + printable(ex.getMessage()));
        if (!CommandLine.UnmatchedArgumentException.printSuggestions(ex, err)) {
            err.println("Try '" + cl.getCommandSpec().qualifiedName() + " --help' for usage.");
        }
        err.flush();
        return ExitCode.USAGE.code();
    }
}
