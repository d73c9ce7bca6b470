package cctk.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.SlurmTests;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The real Slurm of scripts/slurm-local.sh, for the ITs of this package: brings up a mode, runs the built jar
 * and Slurm's commands as processes with deadlines, reads a job's manifest, result files and final state.
 * Runs where the script can (root, and Slurm installed or CI=true); elsewhere the ITs are skipped.
 */
final class LocalCluster {

    /** The checkout (failsafe runs in it). */
    static final Path ROOT = Path.of("").toAbsolutePath();

    private static final Pattern SUBMITTED = Pattern.compile("submitted job ([0-9]+) on \\S+; manifest (\\S+)");

    private LocalCluster() {
    }

    /** Output of one process. */
    record Run(int code, String out) {
    }

    /** What {@code cctk submit --wait} left: the job id, its manifest and the directory results went to. */
    record Submitted(Run run, String jobId, Path manifestFile, String manifest, Path outputDir) {

        /** The job's own output file (srun's and the ranks' output) beside the script. */
        Path jobOutput() {
            return manifestFile.resolveSibling("slurm-" + jobId + ".out");
        }
    }

    /** Starts {@code mode} (local|netns) unless it already runs: {@link SlurmTests#ensure}, the one gate. */
    static void ensure(final String mode) {
        SlurmTests.ensure(mode, "the Slurm ITs of cctk.slurm (" + mode + " mode)");
    }

    /** Starts netns mode with {@code nodes} nodes (restarting a cluster of another size). */
    static void ensureNodes(final int nodes) {
        SlurmTests.ensure("netns", nodes, "the Slurm ITs of cctk.slurm (netns mode, " + nodes + " nodes)");
    }

    /** Runs {@code argv} in the checkout, output and errors merged; fails the test past {@code limit}. */
    static Run run(final Duration limit, final String... argv) {
        return run(Map.of(), limit, List.of(argv));
    }

    static Run run(final Map<String, String> env, final Duration limit, final List<String> argv) {
        try {
            final ProcessBuilder pb = new ProcessBuilder(argv).directory(ROOT.toFile()).redirectErrorStream(true);
            pb.environment().putAll(env);
            final Path log = Files.createTempFile("cctk-it", ".log");
            pb.redirectOutput(log.toFile());
            final Process p = pb.start();
            final boolean ended = p.waitFor(limit.toSeconds(), TimeUnit.SECONDS);
            if (!ended) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
            final String out = Files.readString(log, StandardCharsets.UTF_8);
            Files.deleteIfExists(log);
            assertThat(ended).as("%s did not end within %s:%n%s", argv, limit, out).isTrue();
            return new Run(p.exitValue(), out);
        } catch (IOException e) {
            throw new AssertionError("cannot run " + argv + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted running " + argv, e);
        }
    }

    /** {@code java -jar target/cctk.jar ARGS} with extra environment variables. */
    static Run cctk(final Map<String, String> env, final Duration limit, final String... args) {
        final List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", System.getProperty("cctk.jar", "target/cctk.jar")));
        argv.addAll(List.of(args));
        return run(env, limit, argv);
    }

    /** {@code cctk submit SPEC --wait [-- SBATCH_ARGS]}, then what it says about the job. */
    static Submitted submitWait(final Map<String, String> env, final Duration limit, final String spec,
                                final String... sbatchArgs) throws IOException {
        final List<String> args = new ArrayList<>(List.of("submit", spec, "--wait"));
        if (sbatchArgs.length > 0) {
            args.add("--");
            args.addAll(List.of(sbatchArgs));
        }
        final Run r = cctk(env, limit, args.toArray(String[]::new));
        return submitted(r);
    }

    /** The job id, manifest and output directory that {@code cctk submit} printed and wrote. */
    static Submitted submitted(final Run r) throws IOException {
        final Matcher m = SUBMITTED.matcher(r.out());
        assertThat(m.find()).as("cctk submit output:%n%s", r.out()).isTrue();
        final Path manifestFile = Path.of(m.group(2));
        final String manifest = Files.readString(manifestFile);
        final Matcher out = Pattern.compile("\"output_dir\": \"([^\"]+)\"").matcher(manifest);
        assertThat(out.find()).as(manifest).isTrue();
        return new Submitted(r, m.group(1), manifestFile, manifest, ROOT.resolve(out.group(1)));
    }

    /**
     * The job's final line from {@code scontrol show job -o} (there is no sacct here: no accounting), printed so
     * that the CI log shows how each job ended.
     */
    static String finalLine(final String jobId) {
        final Run r = run(Duration.ofSeconds(30), "scontrol", "show", "job", "-o", jobId);
        assertThat(r.code()).as(r.out()).isZero();
        final String line = r.out().strip();
        final StringBuilder shown = new StringBuilder("slurm final:");
        for (final String f : line.split(" ")) {
            if (f.matches("(JobId|JobName|JobState|Reason|ExitCode|RunTime|TimeLimit|NodeList|NumTasks)=.*")) {
                shown.append(' ').append(f);
            }
        }
        System.out.println(shown);
        return line;
    }

    /** One field of a {@code scontrol show job -o} line, e.g. JobState. */
    static String field(final String scontrolLine, final String name) {
        final Matcher m = Pattern.compile("(?:^| )" + name + "=(\\S*)").matcher(scontrolLine);
        assertThat(m.find()).as("%s in %s", name, scontrolLine).isTrue();
        return m.group(1);
    }

    /** Names of the files in {@code dir} (none when it does not exist). */
    static Set<String> files(final Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return new TreeSet<>();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** The profile_* files that appeared in {@code dir} since {@code before} was listed. */
    static Set<String> newProfiles(final Path dir, final Set<String> before) throws IOException {
        final Set<String> now = files(dir);
        now.removeAll(before);
        now.removeIf(f -> !f.startsWith("profile_"));
        return now;
    }

    /** The (collective, dtype, op, size_bytes, in_place) keys of a result CSV, one per measured row. */
    static Set<String> csvKeys(final Path csv) throws IOException {
        final List<String> lines = Files.readAllLines(csv);
        final List<String> head = List.of(lines.get(0).split(",", -1));
        final int[] cols = Stream.of("collective", "dtype", "op", "size_bytes", "in_place")
                .mapToInt(head::indexOf).toArray();
        final Set<String> keys = new TreeSet<>();
        for (final String line : lines.subList(1, lines.size())) {
            final String[] f = line.split(",", -1);
            final StringBuilder k = new StringBuilder();
            for (final int c : cols) {
                k.append(f[c]).append('/');
            }
            keys.add(k.toString());
        }
        return keys;
    }

    /** Bytes sent so far by {@code nic} of netns node {@code node}, read inside that node's namespace. */
    static long txBytes(final String node, final String nic) {
        final Run r = run(Duration.ofSeconds(30), "ip", "netns", "exec", node, "cat",
                "/sys/class/net/" + nic + "/statistics/tx_bytes");
        assertThat(r.code()).as(r.out()).isZero();
        return Long.parseLong(r.out().strip());
    }

    /** A spec in {@code dir} that extends a shipped config with the given YAML (absolute extends path). */
    static Path spec(final Path dir, final String name, final String base, final String yaml) throws IOException {
        final Path file = dir.resolve(name + ".yaml");
        Files.writeString(file, "extends: " + ROOT.resolve(base) + "\n" + yaml);
        return file;
    }
}
