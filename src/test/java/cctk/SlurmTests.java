package cctk;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The one gate of every test that needs a real Slurm: it brings the local test cluster up (scripts/slurm-local.sh,
 * installing Slurm and munge first when it is missing, as CI does), or, where that cannot work (not root), fails
 * the test with the command that makes it run. A Slurm test is skipped only when asked with
 * {@code -Dcctk.slurm.skip=true}, and then it says so loudly: a skipped Slurm test never looks like a passed one.
 * <b>Note:</b> threadsafe (one process at a time per test class).
 */
public final class SlurmTests {

    /** The property that turns a failure for want of Slurm into a loud skip. */
    public static final String SKIP_PROPERTY = "cctk.slurm.skip";
    /** What makes the Slurm tests run on a fresh machine. */
    public static final String HOW = "as root: bash scripts/slurm-local.sh install && mvn -B verify (or run"
            + " bash .ci/run, which does the same on a fresh Debian 12 machine)";

    private static final Path ROOT = Path.of("").toAbsolutePath();

    private SlurmTests() {
    }

    /**
     * Makes the test cluster of {@code mode} (local | netns) run for {@code test}: starts it unless it runs, after
     * installing Slurm where it is missing and this is root; otherwise fails or, when asked, skips loudly.
     */
    public static void ensure(final String mode, final String test) {
        ensure(mode, 0, test);
    }

    /**
     * As {@link #ensure(String, String)}, with {@code nodes} nodes in netns mode (CCTK_SLURM_NODES; 0: the script's
     * default of 2, or what the environment says). A running cluster of another size is restarted at this size.
     */
    public static void ensure(final String mode, final int nodes, final String test) {
        final boolean root = "root".equals(System.getProperty("user.name"));
        if (!root) {
            unavailable(test, "it starts a local test Slurm, which needs root (this is user '"
                    + System.getProperty("user.name") + "')");
        }
        if (!installed()) {
            if (Boolean.getBoolean(SKIP_PROPERTY)) {
                unavailable(test, "Slurm is not installed");
            }
            System.out.println("cctk tests: Slurm is not installed; installing it for " + test + " (scripts/"
                    + "slurm-local.sh install; -D" + SKIP_PROPERTY + "=true skips the Slurm tests instead)");
            script(0, "install");
        }
        script(nodes, "start", mode);
    }

    /** Fails {@code test} for want of {@code why}, or aborts it with a loud banner under {@link #SKIP_PROPERTY}. */
    public static void unavailable(final String test, final String why) {
        final String text = test + " needs a real Slurm and cannot run here: " + why + ". To run it: " + HOW + ".";
        if (Boolean.getBoolean(SKIP_PROPERTY)) {
            final String bar = "!".repeat(100);
            System.out.println(bar + "\n!! SKIPPED, NOT PASSED (-D" + SKIP_PROPERTY + "=true): " + text + "\n" + bar);
            Assumptions.abort("SKIPPED, NOT PASSED: " + text);
        }
        fail(text + " (Or skip the Slurm tests, loudly, with -D" + SKIP_PROPERTY + "=true.)");
    }

    private static boolean installed() {
        for (final String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "sbatch"))) {
                return true;
            }
        }
        return false;
    }

    private static void script(final int nodes, final String... args) {
        final List<String> cmd = new java.util.ArrayList<>(List.of("bash",
                ROOT.resolve("scripts/slurm-local.sh").toString()));
        cmd.addAll(List.of(args));
        try {
            final Path log = Files.createTempFile("cctk-slurm", ".log");
            final ProcessBuilder pb = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            if (nodes > 0) {
                pb.environment().put("CCTK_SLURM_NODES", Integer.toString(nodes));
            }
            final Process p = pb.start();
            final boolean ended = p.waitFor(600, TimeUnit.SECONDS);
            if (!ended) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
            final String out = Files.readString(log, StandardCharsets.UTF_8);
            Files.deleteIfExists(log);
            if (!ended || p.exitValue() != 0) {
                fail(String.join(" ", cmd) + (ended ? " failed (exit " + p.exitValue() + ")" : " ran over 600 s")
                        + ":\n" + out);
            }
        } catch (final IOException e) {
            fail("cannot run " + cmd + ": " + e.getMessage());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted while running " + cmd);
        }
    }
}
