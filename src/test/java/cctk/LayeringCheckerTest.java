package cctk;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checker of {@link Layering} catches what it is meant to catch: classes planted next to the product's own,
 * compiled into a temporary directory, each break one rule, and the checker run over the product's classes plus the
 * planted ones names each of them and nothing else.
 */
@Timeout(120)
class LayeringCheckerTest {

    private static final String SHM_USES_CLI = """
        package cctk.comm.shm;

        import cctk.cli.Main;

        public final class PlantedUpwards {
            public static String top() {
                return Main.class.getName();
            }
        }
        """;

    private static final String NO_LAYER = """
        package cctk.stray;

        public final class PlantedStray {
            public static int one() {
                return 1;
            }
        }
        """;

    private static final String YAML_OUTSIDE_SPEC = """
        package cctk.bench;

        public final class PlantedYaml {
            public static Object parse(final String text) {
                return new org.yaml.snakeyaml.Yaml().load(text);
            }
        }
        """;

    private static final String JAVACPP_OUTSIDE_NCCL = """
        package cctk.comm.shm;

        public final class PlantedPointer {
            public static long address(final org.bytedeco.javacpp.Pointer p) {
                return p.address();
            }
        }
        """;

    private static final String LISTENS_IN_SHM = """
        package cctk.comm.shm;

        public final class PlantedListener {
            public static int port() throws java.io.IOException {
                try (java.nio.channels.ServerSocketChannel s = java.nio.channels.ServerSocketChannel.open()) {
                    return s.socket().getLocalPort();
                }
            }
        }
        """;

    private static Path productClasses;

    @TempDir
    Path dir;

    @BeforeAll
    static void findProduct() throws URISyntaxException {
        productClasses = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @Test
    void theProductAloneHasNoViolation() {
        assertThat(Layering.violations(Layering.fromDirectories(productClasses))).isEmpty();
    }

    @Test
    void aCommunicatorThatReachesUpToTheCommandLineFails() throws IOException {
        final Path planted = compile(SHM_USES_CLI);
        final List<String> found = Layering.violations(Layering.fromDirectories(productClasses, planted));
        print("shm -> cli", found);
        assertThat(found).hasSize(1);
        assertThat(found.get(0)).contains("cctk.comm.shm.PlantedUpwards", "cctk.cli.Main", "each layer of cctk.Layering");
    }

    @Test
    void aPackageInNoLayerFails() throws IOException {
        final Path planted = compile(NO_LAYER);
        final List<String> found = Layering.violations(Layering.fromDirectories(productClasses, planted));
        print("package in no layer", found);
        assertThat(found).singleElement().asString()
            .contains("cctk.stray.PlantedStray", "every package is a layer");
    }

    @Test
    void aLibraryOutsideItsHomeFails() throws IOException {
        final Path planted = compile(YAML_OUTSIDE_SPEC, JAVACPP_OUTSIDE_NCCL, LISTENS_IN_SHM);
        final List<String> found = Layering.violations(Layering.fromDirectories(productClasses, planted));
        print("libraries outside their homes", found);
        assertThat(found).isNotEmpty().allSatisfy(v -> assertThat(v).contains("Planted"));
        assertThat(found).anySatisfy(v -> assertThat(v).contains("cctk.bench.PlantedYaml", "org.yaml.snakeyaml")
            .contains("is used only in cctk.spec"));
        assertThat(found).anySatisfy(v -> assertThat(v).contains("cctk.comm.shm.PlantedPointer",
            "org.bytedeco.javacpp.Pointer", "is used only in cctk.comm.nccl"));
        assertThat(found).anySatisfy(v -> assertThat(v).contains("cctk.comm.shm.PlantedListener",
            "ServerSocketChannel", "listening sockets are opened only by"));
    }

    private static void print(final String what, final List<String> found) {
        System.out.println("planted " + what + ": " + found.size() + " violation(s)");
        found.forEach(v -> System.out.println("  " + v));
    }

    /** Compiles these sources, against the test's own class path, into a fresh directory of the temp dir. */
    private Path compile(final String... sources) throws IOException {
        final Path src = dir.resolve("src");
        final Path out = Files.createDirectories(dir.resolve("classes"));
        final List<String> args = new ArrayList<>(List.of("-d", out.toString(), "-proc:none",
            "-cp", System.getProperty("java.class.path")));
        for (final String source : sources) {
            final String pkg = source.lines().findFirst().orElseThrow().replace("package ", "").replace(";", "");
            final String name = source.replaceAll("(?s).*public final class (\\w+).*", "$1");
            final Path file = src.resolve(pkg.replace('.', '/')).resolve(name + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, source);
            args.add(file.toString());
        }
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        final ByteArrayOutputStream log = new ByteArrayOutputStream();
        final int rc = javac.run(null, log, log, args.toArray(String[]::new));
        assertThat(rc).as("javac: %s", log).isZero();
        try (Stream<Path> classes = Files.walk(out)) {
            assertThat(classes.filter(f -> f.toString().endsWith(".class"))).hasSize(sources.length);
        }
        return out;
    }
}
