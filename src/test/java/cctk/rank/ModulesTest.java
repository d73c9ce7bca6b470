package cctk.rank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.Environment;
import cctk.ExitCode;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding the gloo module, and its class loader taking JavaCPP's classes and libraries from the module first. */
class ModulesTest {

    @TempDir
    Path dir;

    @Test
    void aMissingModuleSaysHowToBuildIt() {
        final Environment env = Environment.of(Map.of("CCTK_GLOO_DIR", dir.toString()));
        assertThat(Modules.glooDir(env)).isEqualTo(dir);
        assertThatThrownBy(() -> Modules.gloo(env)).isInstanceOf(CctkException.class)
                .satisfies(e -> assertThat(((CctkException) e).exitCode()).isEqualTo(ExitCode.ENVIRONMENT))
                .hasMessageContaining(dir + " holds no cctk-gloo.jar and lib/")
                .hasMessageContaining("mvn package").hasMessageContaining("CCTK_GLOO_DIR");
    }

    @Test
    void withoutCctkGlooDirTheModuleIsBesideTheClassesCctkRunsFrom() {
        assertThat(Modules.glooDir(Environment.empty()).getFileName().toString()).isEqualTo("gloo");
    }

    @Test
    void javacppResourcesComeFromTheModuleAndCctksOwnFromCctk() throws Exception {
        final Path parentJar = jar("parent.jar", "parent");
        final Path moduleJar = jar("module.jar", "module");
        try (URLClassLoader parent = new URLClassLoader(new URL[] {parentJar.toUri().toURL()}, null);
             Modules.ModuleFirst module = new Modules.ModuleFirst(new URL[] {moduleJar.toUri().toURL()}, parent)) {
            assertThat(read(module.getResource("org/bytedeco/javacpp/linux-x86_64/lib.txt"))).isEqualTo("module");
            assertThat(read(module.getResource("cctk/comm/thing.txt"))).isEqualTo("parent");
            assertThat(module.getResources("org/bytedeco/javacpp/linux-x86_64/lib.txt").nextElement())
                    .hasToString(module.getResource("org/bytedeco/javacpp/linux-x86_64/lib.txt").toString());
        }
    }

    private Path jar(final String name, final String text) throws Exception {
        final Path p = dir.resolve(name);
        try (OutputStream o = Files.newOutputStream(p); JarOutputStream j = new JarOutputStream(o)) {
            for (final String entry : new String[] {"org/bytedeco/javacpp/linux-x86_64/lib.txt",
                "cctk/comm/thing.txt"}) {
                j.putNextEntry(new JarEntry(entry));
                j.write(text.getBytes(StandardCharsets.UTF_8));
                j.closeEntry();
            }
        }
        return p;
    }

    private static String read(final URL url) throws Exception {
        try (var in = url.openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
