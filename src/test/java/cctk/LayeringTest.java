package cctk;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Dependencies point down, read from the compiled classes (every reference, not only imports): the command line on
 * top; the commands' engines (launch, slurm, render, report, demo, diagnose's rank and job sides) below it; then
 * the rank, the harness (bench), the job spec, the collectives and the communicators, with the diagnosis's verdict
 * (pure rules and its files), the result files and cctk's base package at the bottom. The layers, what each may use
 * and where each third-party library may be used are listed in {@link Layering}; every package must be in a layer.
 * A test fails naming every class that reaches elsewhere.
 */
@Timeout(60)
class LayeringTest {

    private static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = Layering.product();
    }

    @Test
    void everyPackageIsInALayerAndEveryLayerUsesOnlyWhatItLists() {
        assertThat(Layering.violations(classes)).isEmpty();
    }

    @Test
    void theLayersCoverThePackagesOfTheSourceTree() throws IOException {
        final Set<String> packages = new TreeSet<>();
        for (final Path root : new Path[] {Path.of("src", "main", "java"), Path.of("src", "gloo", "java")}) {
            try (Stream<Path> files = Files.walk(root.resolve("cctk"))) {
                files.filter(f -> f.toString().endsWith(".java"))
                    .map(f -> root.relativize(f.getParent()).toString().replace(File.separatorChar, '.'))
                    .forEach(packages::add);
            }
        }
        assertThat(Layering.LAYERS.stream().map(Layering.Layer::pkg)).containsExactlyInAnyOrderElementsOf(packages);
    }

    @Test
    void onlyEnvironmentReadsTheProcessEnvironment() {
        noClasses().that().doNotHaveFullyQualifiedName(Environment.class.getName())
            .should().callMethod(System.class, "getenv")
            .orShould().callMethod(System.class, "getenv", String.class)
            .because("every variable cctk reads is listed in cctk.EnvVar and read through cctk.Environment")
            .check(classes);
    }

    @Test
    void onlyTuningReadsTheKnobsOfTheCpuBackend() {
        noClasses().that().doNotHaveFullyQualifiedName(cctk.comm.Tuning.class.getName())
            .should().callMethod(Integer.class, "getInteger", String.class)
            .orShould().callMethod(Integer.class, "getInteger", String.class, int.class)
            .orShould().callMethod(Long.class, "getLong", String.class)
            .orShould().callMethod(Long.class, "getLong", String.class, long.class)
            .orShould().callMethod(Boolean.class, "getBoolean", String.class)
            .because("the knobs, their defaults and their property names are listed once, in cctk.comm.Tuning")
            .check(classes);
        noClasses().that().resideInAPackage("cctk.comm..")
            .and().doNotHaveFullyQualifiedName(cctk.comm.Tuning.class.getName())
            .and().doNotHaveFullyQualifiedName("cctk.comm.nccl.NcclLibraries")
            .and().doNotHaveFullyQualifiedName("cctk.comm.gloo.GlooModule")
            .should().callMethod(System.class, "getProperty", String.class)
            .orShould().callMethod(System.class, "getProperty", String.class, String.class)
            .because("the communicators read system properties only through cctk.comm.Tuning (NcclLibraries and"
                + " GlooModule read JavaCPP's own)")
            .check(classes);
    }
}
