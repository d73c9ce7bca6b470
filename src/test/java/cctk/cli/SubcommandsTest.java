package cctk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * Main registers its subcommands itself (so a command line builds only the one it names): every command class of
 * cctk.cli is registered, under the name its annotation gives, and a command line naming one builds that one alone.
 */
@Timeout(60)
class SubcommandsTest {

    @Test
    void everyCommandClassIsRegisteredUnderItsOwnName() {
        final Set<String> declared = new TreeSet<>();
        for (final JavaClass c : new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("cctk.cli")) {
            if (c.isAnnotatedWith(CommandLine.Command.class) && !c.getName().equals(Main.class.getName())) {
                declared.add(c.getAnnotationOfType(CommandLine.Command.class).name());
            }
        }
        final PrintWriter sink = new PrintWriter(new StringWriter());
        final Set<String> registered = new TreeSet<>(Main.commandLine(sink, sink).getSubcommands().keySet());
        assertThat(registered).containsAll(declared).contains("help", "generate-completion");
        assertThat(Main.commandLine(sink, sink, new String[] {"-x", "validate", "a.yaml"}).getSubcommands().keySet())
            .containsExactly("validate");
        assertThat(Main.commandLine(sink, sink, new String[] {"valdiate"}).getSubcommands()).hasSameSizeAs(registered);
    }
}
