package cctk.cli;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Build step (mvn package, exec:java in test scope): picocli's ManPageGenerator writes an AsciiDoc man page for
 * cctk and for each of its subcommands, from the command line cctk really builds (its subcommands are added in code,
 * not listed in annotations). Asciidoctor then turns them into target/man/man1/*.1.
 */
public final class ManPageMain {

    private ManPageMain() {
    }

    public static void main(final String[] args) throws Exception {
        final CommandLine cl = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        final List<CommandSpec> specs = new ArrayList<>();
        specs.add(cl.getCommandSpec());
        cl.getSubcommands().values().forEach(sub -> specs.add(sub.getCommandSpec()));
        final int code = ManPageGenerator.generateManPage(new File(args[0]), null, new boolean[0], true,
            specs.toArray(new CommandSpec[0]));
        if (code != 0) {
            throw new IllegalStateException("ManPageGenerator failed with " + code);
        }
    }
}
