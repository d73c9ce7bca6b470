package cctk.rank;

import cctk.CctkException;
import cctk.EnvVar;
import cctk.Environment;
import cctk.ExitCode;
import cctk.comm.BackendModule;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds and loads the backends that live in modules of their own: the gloo module is the folder {@code gloo/} beside
 * cctk.jar ({@code mvn package} makes target/gloo/ beside target/cctk.jar), or the folder CCTK_GLOO_DIR names:
 * {@code cctk-gloo.jar} and the jars of {@code lib/}. Its classes and JavaCPP's come from the module first (its
 * PyTorch preset was built with another JavaCPP than the nccl backend's), cctk's own from cctk.jar.
 */
final class Modules {

    /** The class the gloo module's jar provides. */
    static final String GLOO_CLASS = "cctk.comm.gloo.GlooModule";

    private Modules() {
    }

    /** The gloo backend's module, loaded now; throws CctkException(ENVIRONMENT) saying what is missing. */
    static BackendModule gloo(final Environment env) {
        final Path dir = glooDir(env);
        final Path jar = dir.resolve("cctk-gloo.jar");
        final Path lib = dir.resolve("lib");
        if (!Files.isRegularFile(jar) || !Files.isDirectory(lib)) {
            throw new CctkException(ExitCode.ENVIRONMENT, "the gloo backend is a module of its own, and " + dir
                    + " holds no cctk-gloo.jar and lib/: build it with 'mvn package' (it makes target/gloo beside "
                    + "target/cctk.jar; -Dcctk.gloo.skip=true leaves it out), copy that folder beside cctk.jar as "
                    + "gloo/, or set " + EnvVar.CCTK_GLOO_DIR + " to where it is.");
        }
        final ClassLoader loader = glooLoader(dir);
        try {
            return (BackendModule) loader.loadClass(GLOO_CLASS).getConstructor().newInstance();
        } catch (final ClassNotFoundException | NoSuchMethodException | InstantiationException
                       | IllegalAccessException e) {
            throw CctkException.environment(jar + " does not provide " + GLOO_CLASS + " (" + e + "): rebuild it"
                    + " with the cctk.jar it runs with.", e);
        } catch (final InvocationTargetException e) {
            throw CctkException.environment("the gloo module in " + dir + " failed to start: " + e.getCause(),
                    e.getCause());
        }
    }

    /** The class loader of the gloo module in {@code dir}: its cctk-gloo.jar, then the jars of its lib/. */
    static ModuleFirst glooLoader(final Path dir) {
        final Path lib = dir.resolve("lib");
        final List<URL> urls = new ArrayList<>();
        try (Stream<Path> jars = Files.list(lib)) {
            urls.add(dir.resolve("cctk-gloo.jar").toUri().toURL());
            for (final Path p : (Iterable<Path>) jars.sorted()::iterator) {
                if (p.getFileName().toString().endsWith(".jar")) {
                    urls.add(p.toUri().toURL());
                }
            }
        } catch (final IOException e) {
            throw CctkException.environment("could not list the gloo module's libraries in " + lib + ": " + e, e);
        }
        return new ModuleFirst(urls.toArray(URL[]::new), Modules.class.getClassLoader());
    }

    /** CCTK_GLOO_DIR, else gloo/ beside the jar cctk runs from (target/gloo in a build tree). */
    static Path glooDir(final Environment env) {
        final String own = env.optional(EnvVar.CCTK_GLOO_DIR);
        if (own != null && !own.isBlank()) {
            return Path.of(own);
        }
        try {
            final Path here = Path.of(Modules.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return here.getParent().resolve("gloo");
        } catch (final URISyntaxException | RuntimeException e) {
            return Path.of("gloo").toAbsolutePath();
        }
    }

    /**
     * Loads the module's own classes, JavaCPP's and the presets' (org.bytedeco), and their resources (the native
     * libraries JavaCPP unpacks) from the module first; everything else (cctk's interfaces) from cctk.jar.
     */
    static final class ModuleFirst extends URLClassLoader {

        static {
            ClassLoader.registerAsParallelCapable();
        }

        ModuleFirst(final URL[] urls, final ClassLoader parent) {
            super("cctk-module", urls, parent);
        }

        private static boolean own(final String name) {
            return name.startsWith("org.bytedeco.") || name.startsWith("cctk.comm.gloo.")
                    || name.startsWith("org/bytedeco/") || name.startsWith("META-INF/maven/org.bytedeco/");
        }

        @Override
        protected Class<?> loadClass(final String name, final boolean resolve) throws ClassNotFoundException {
            if (!own(name)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        public URL getResource(final String name) {
            final URL mine = own(name) ? findResource(name) : null;
            return mine != null ? mine : super.getResource(name);
        }

        @Override
        public Enumeration<URL> getResources(final String name) throws IOException {
            return own(name) ? findResources(name) : super.getResources(name);
        }
    }
}
