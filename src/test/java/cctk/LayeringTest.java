package cctk;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Dependencies point down, read from the compiled classes (every reference, not only imports): the command line on
 * top; the commands' engines (launch, slurm, render, report, demo, diagnose) below it; then the rank, the harness
 * (bench), the job spec, the collectives and the communicators, with the diagnosis's verdict (pure rules and its
 * files), the result files and cctk's base package at the bottom.
 * Each layer may use only the layers listed for it; a test fails naming every class that reaches elsewhere.
 */
@Timeout(60)
class LayeringTest {

    private static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("cctk");
    }

    @Test
    void everyLayerUsesOnlyTheLayersBelowIt() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("cli").definedBy("cctk.cli..")
            .layer("launch").definedBy("cctk.launch..")
            .layer("slurm").definedBy("cctk.slurm..")
            .layer("render").definedBy("cctk.render..")
            .layer("report").definedBy("cctk.report..")
            .layer("demo").definedBy("cctk.demo..")
            .layer("diagnose").definedBy("cctk.diagnose")
            .layer("rank").definedBy("cctk.rank..")
            .layer("bench").definedBy("cctk.bench..")
            .layer("spec").definedBy("cctk.spec..")
            .layer("coll").definedBy("cctk.coll..")
            .layer("tcp").definedBy("cctk.comm.tcp..")
            .layer("nccl").definedBy("cctk.comm.nccl..")
            .layer("comm").definedBy("cctk.comm")
            .layer("verdict").definedBy("cctk.diagnose.verdict..")
            .layer("results").definedBy("cctk.results..")
            .layer("base").definedBy("cctk")
            .whereLayer("cli").mayNotBeAccessedByAnyLayer()
            .whereLayer("launch").mayOnlyAccessLayers("rank", "bench", "spec", "coll", "comm", "results", "base")
            .whereLayer("slurm").mayOnlyAccessLayers("base")
            .whereLayer("render").mayOnlyAccessLayers("spec", "coll", "comm", "nccl", "results", "base")
            .whereLayer("report").mayOnlyAccessLayers("comm", "results", "base") // comm: DType, the element types
            .whereLayer("demo").mayOnlyAccessLayers("comm", "results", "base")
            .whereLayer("diagnose").mayOnlyAccessLayers("render", "slurm", "rank", "spec", "coll", "tcp", "comm",
                "verdict", "report", "results", "base")
            .whereLayer("rank").mayOnlyAccessLayers("bench", "spec", "coll", "tcp", "nccl", "comm", "results", "base")
            .whereLayer("bench").mayOnlyAccessLayers("spec", "coll", "comm", "results", "base")
            .whereLayer("spec").mayOnlyAccessLayers("coll", "nccl", "comm", "results", "base")
            .whereLayer("coll").mayOnlyAccessLayers("comm", "base")
            .whereLayer("tcp").mayOnlyAccessLayers("comm", "base")
            .whereLayer("nccl").mayOnlyAccessLayers("comm", "base")
            .whereLayer("comm").mayOnlyAccessLayers("base")
            .whereLayer("verdict").mayOnlyAccessLayers("results", "base")
            .whereLayer("results").mayOnlyAccessLayers("base")
            .whereLayer("base").mayNotAccessAnyLayer()
            .check(classes);
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
            .should().callMethod(System.class, "getProperty", String.class)
            .orShould().callMethod(System.class, "getProperty", String.class, String.class)
            .because("the communicators read system properties only through cctk.comm.Tuning (NcclLibraries reads"
                + " JavaCPP's own)")
            .check(classes);
    }
}
