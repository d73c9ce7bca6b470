package cctk.render;

import cctk.CctkException;
import cctk.EnvVar;
import cctk.Environment;
import cctk.spec.Cluster;
import cctk.spec.JobSpec;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The files a job script runs, checked where the script will look for them before a job is rendered or submitted:
 * {@code cluster.jar} (every rank's {@code java -jar}), {@code cluster.java} when it names a file, and the env script
 * it sources. A bare {@code java} is looked up on this PATH unless the spec loads modules or an env script (which
 * set the compute nodes' PATH, unknown here). Paths are taken as {@link SpecPaths#absolute} makes them.
 * <b>Note:</b> threadsafe (no state).
 */
public final class ScriptFiles {

    private ScriptFiles() {
    }

    /** What is missing for {@code spec} rendered from {@code baseDir}, one sentence each; empty when all is there. */
    public static List<String> missing(final JobSpec spec, final Path baseDir, final Environment env) {
        final Cluster c = SpecPaths.absolute(spec, baseDir).cluster();
        final List<String> out = new ArrayList<>();
        if (c.jar() != null && !Files.isRegularFile(Path.of(c.jar()))) {
            out.add("cluster.jar " + c.jar() + " does not exist, and every rank runs 'java -jar' on it. Build it"
                + " with 'mvn -B -DskipTests package' (or copy target/cctk.jar there), or set cluster.jar to the jar"
                + " as the compute nodes see it");
        }
        if (c.java() != null && c.java().contains("/")) {
            if (!Files.isExecutable(Path.of(c.java())) || Files.isDirectory(Path.of(c.java()))) {
                out.add("cluster.java " + c.java() + " is not an executable file; name a Java 17+ 'java' the"
                    + " compute nodes can run (e.g. $HOME/jdk-17/bin/java)");
            }
        } else if (c.java() != null && c.modules().isEmpty() && c.envScript() == null
            && !onPath(c.java(), env.getOrDefault(EnvVar.PATH, ""))) {
            out.add("cluster.java '" + c.java() + "' is not on this PATH, and the spec loads no module or env script"
                + " that would put it there; set cluster.java to a Java 17+ 'java' the compute nodes can run");
        }
        if (c.envScript() != null && !Files.isRegularFile(Path.of(c.envScript()))) {
            out.add("cluster.env_script " + c.envScript() + " does not exist, and the job script sources it");
        }
        return out;
    }

    /** Throws a usage error naming every missing file, so no job is rendered that would fail on the node. */
    public static void check(final JobSpec spec, final Path baseDir, final Environment env) {
        final List<String> missing = missing(spec, baseDir, env);
        if (!missing.isEmpty()) {
            throw CctkException.usage((spec.source() == null ? "the spec" : spec.source().toString()) + ": "
                + String.join("; ", missing) + ".");
        }
    }

    private static boolean onPath(final String command, final String path) {
        for (final String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
