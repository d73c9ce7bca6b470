package cctk;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Locations;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.net.ServerSocket;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * cctk's layers and the homes of its third-party libraries, as rules that can be checked against any set of compiled
 * classes: the product's own (LayeringTest) or a planted tree in a temporary directory (LayeringCheckerTest).
 * Every layer is one package exactly, so a new package, sub-packages included, belongs to no layer until it is
 * listed here, and {@link #rules()} reports it.
 */
final class Layering {

    /** One layer: its name, its one package and the layers it may use. */
    record Layer(String name, String pkg, List<String> uses) {
        Layer(final String name, final String pkg, final String... uses) {
            this(name, pkg, List.of(uses));
        }
    }

    /**
     * Top to bottom. Each list is what the code uses today, nothing more; widening one is a design decision that
     * should show in review.
     */
    static final List<Layer> LAYERS = List.of(
        new Layer("cli", "cctk.cli", "launch", "slurm", "render", "report", "demo", "diagnose", "probe", "rank",
            "spec", "coll", "comm", "inputs", "judge", "results", "base"),
        new Layer("launch", "cctk.launch", "bench", "spec", "coll", "comm", "lifecycle", "base"),
        new Layer("slurm", "cctk.slurm", "base"),
        new Layer("render", "cctk.render", "spec", "base"),
        // comm: DType, the element types; nccltests: the export in nccl-tests' layout and its names; inputs: the
        // export's directory, which the reader of inputs leaves out
        new Layer("report", "cctk.report", "comm", "inputs", "judge", "nccltests", "results", "base"),
        new Layer("demo", "cctk.demo", "comm", "results", "base"),
        // diagnose's rank side: joins the world (rank), opens its links (tcp), measures with the sweep's JIT clock
        // and vote (bench) and hands its figures to rank 0's coordinator (diagnose); never renders nor submits
        new Layer("probe", "cctk.diagnose.probe", "diagnose", "rank", "bench", "spec", "coll", "tcp", "comm",
            "verdict", "base"),
        // diagnose's job side: submits (render, slurm), plans and judges through the store (comm: Store) and writes
        // the files (verdict) and the page (report); never opens a link
        new Layer("diagnose", "cctk.diagnose", "render", "slurm", "spec", "comm", "verdict", "report", "results",
            "base"),
        new Layer("rank", "cctk.rank", "bench", "spec", "tcp", "nccl", "shm", "store", "comm", "judge", "results",
            "lifecycle", "base"), // judge: the end of a run judges its references
        new Layer("bench", "cctk.bench", "spec", "coll", "comm", "results", "lifecycle", "base"),
        new Layer("spec", "cctk.spec", "coll", "nccl", "comm", "results", "base"), // nccl: NcclConfig, its knobs
        new Layer("coll", "cctk.coll", "comm"),
        new Layer("tcp", "cctk.comm.tcp", "comm", "base"),
        new Layer("nccl", "cctk.comm.nccl", "comm", "base"),
        // the gloo module (src/gloo/java, target/gloo-classes): only cctk.comm's interfaces and the base package
        new Layer("gloo", "cctk.comm.gloo", "comm", "base"),
        new Layer("shm", "cctk.comm.shm", "comm", "base"),
        // the rendezvous store: its server, client, frames and the HMAC join; a Store of comm's, beneath the rank
        new Layer("store", "cctk.store", "comm", "base"),
        new Layer("comm", "cctk.comm", "base"), // base: PeerFailure is a CctkException with its exit code
        new Layer("verdict", "cctk.diagnose.verdict", "results", "base"),
        // the results' readers of every input: files and directories searched, each file's format recognised
        new Layer("inputs", "cctk.results.inputs", "nccltests", "results", "base"),
        // references judged on measurements, and which measurements stand for a run
        new Layer("judge", "cctk.results.judge", "results", "base"),
        // nccl-tests' output, read (text, JSON) and written (its text layout); the schema is results'
        new Layer("nccltests", "cctk.results.nccltests", "results", "base"),
        // the schema of runs and measurements, and cctk's own result files written and read
        new Layer("results", "cctk.results", "base"),
        // a rank process's signals, halt and time limit: the launcher, the rank and the harness share them
        new Layer("lifecycle", "cctk.lifecycle", "base"),
        new Layer("base", "cctk"));

    private Layering() {
    }

    /** Where the build compiles the gloo module (src/gloo/java), apart from cctk.jar's classes. */
    static final Path GLOO_CLASSES = Path.of("target", "gloo-classes");

    /** The product's classes, tests left out, the gloo module's included where it was built. */
    static JavaClasses product() {
        final Set<Location> where = new LinkedHashSet<>(Locations.ofPackage("cctk"));
        if (Files.isDirectory(GLOO_CLASSES)) {
            where.add(Location.of(GLOO_CLASSES));
        }
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importLocations(where);
    }

    /** The classes under these directories (roots of package trees, such as target/classes). */
    static JavaClasses fromDirectories(final Path... roots) {
        return new ClassFileImporter().importPaths(roots);
    }

    /** Every rule, in the order they are reported. */
    static List<ArchRule> rules() {
        final List<ArchRule> rules = new ArrayList<>();
        rules.add(everyPackageInALayer());
        rules.add(layers());
        rules.add(confined("org.bytedeco..", "JavaCPP's bindings of CUDA, NCCL and PyTorch", "cctk.comm.nccl",
            "cctk.comm.gloo"));
        rules.add(confined("org.bytedeco.pytorch..", "PyTorch's Gloo, in the gloo module", "cctk.comm.gloo"));
        rules.add(confined("org.yaml.snakeyaml..", "the job spec's YAML", "cctk.spec"));
        rules.add(confined("org.knowm.xchart..", "the report's plots", "cctk.report"));
        rules.add(confined("picocli..", "the command line", "cctk.cli"));
        rules.add(confined("org.apache.commons.exec..", "running Slurm's commands", "cctk.slurm"));
        rules.add(confined("com.google.gson..", "JSON, read and written by cctk.Json, cctk.JsonParsing and the"
            + " result files", "cctk", "cctk.results"));
        rules.add(confined("de.siegmar.fastcsv..", "CSV, written and read by the result files (the report reads"
            + " the diagnosis's CSV)", "cctk.results", "cctk.report"));
        rules.add(listening());
        return rules;
    }

    /** What every rule reports against these classes: one line per violation, naming the rule. */
    static List<String> violations(final JavaClasses classes) {
        final Set<String> found = new LinkedHashSet<>(); // a layer's two rules may report one access twice
        for (final ArchRule rule : rules()) {
            final EvaluationResult result = rule.evaluate(classes);
            for (final String detail : result.getFailureReport().getDetails()) {
                found.add("[" + rule.getDescription() + "] " + detail);
            }
        }
        return List.copyOf(found);
    }

    private static ArchRule everyPackageInALayer() {
        final String[] packages = LAYERS.stream().map(Layer::pkg).toArray(String[]::new);
        return classes().should().resideInAnyPackage(packages)
            .as("every package is a layer of cctk.Layering, so its dependencies are checked");
    }

    private static ArchRule layers() {
        // optional: the gloo module's classes are there only where it was built
        LayeredArchitecture arch = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .withOptionalLayers(true);
        for (final Layer l : LAYERS) {
            arch = arch.layer(l.name()).definedBy(l.pkg());
        }
        arch = arch.whereLayer("cli").mayNotBeAccessedByAnyLayer();
        for (final Layer l : LAYERS) {
            arch = l.uses().isEmpty() ? arch.whereLayer(l.name()).mayNotAccessAnyLayer()
                : arch.whereLayer(l.name()).mayOnlyAccessLayers(l.uses().toArray(String[]::new));
        }
        return arch.as("each layer of cctk.Layering uses only the layers it lists");
    }

    private static ArchRule confined(final String library, final String what, final String... owners) {
        return noClasses().that().resideOutsideOfPackages(owners)
            .should().dependOnClassesThat().resideInAPackage(library)
            .as(library + " (" + what + ") is used only in " + String.join(", ", owners));
    }

    /**
     * Listening sockets: the store server (store) and the TCP mesh (comm.tcp) listen; launch only asks the system
     * for a free port to hand to rank 0 (LocalLauncher.freePort, which the class-data training reuses).
     */
    private static ArchRule listening() {
        return noClasses().that().resideOutsideOfPackages("cctk.store", "cctk.comm.tcp", "cctk.launch")
            .should().dependOnClassesThat(assignableTo(ServerSocket.class)
                .or(assignableTo(ServerSocketChannel.class))
                .or(assignableTo(AsynchronousServerSocketChannel.class)))
            .as("listening sockets are opened only by the store server (cctk.store), the TCP mesh (cctk.comm.tcp)"
                + " and the launcher's free-port probe (cctk.launch)");
    }
}
