package cctk.cli;

import cctk.CctkException;
import cctk.Environment;
import cctk.ExitCode;
import cctk.render.ScriptFiles;
import cctk.spec.JobSpec;
import cctk.spec.SpecParser;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cctk validate SPEC...}: checks specs without running anything; every problem of every file. */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Check job specs: prints 'ok FILE' for each good one and every problem of each bad one "
            + "(FILE:LINE:COL: key: expected X, found Y). Exit 2 if any spec is bad.")
final class ValidateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "SPEC", description = "YAML job specs, e.g. configs/*.yaml")
    List<Path> files;

    @Override
    public Integer call() {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        int bad = 0;
        for (final Path file : files) {
            try {
                final JobSpec parsed = SpecParser.parse(file);
                out.println("ok " + Main.printable(file.toString()));
                for (final String missing : ScriptFiles.missing(parsed, Path.of("").toAbsolutePath(),
                        Environment.process())) {
                    err.println("cctk: warning: " + Main.printable(file.toString()) + ": " + Main.printable(missing)
                            + " (render and submit refuse it until it is there).");
                }
            } catch (final CctkException e) {
                if (e.exitCode() != ExitCode.USAGE) {
                    throw e;
                }
                err.println("cctk: " + Main.printable(e.getMessage()));
                bad++;
            }
        }
        out.flush();
        err.flush();
        return bad == 0 ? ExitCode.OK.code() : ExitCode.USAGE.code();
    }
}
