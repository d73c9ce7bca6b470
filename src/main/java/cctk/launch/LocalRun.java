package cctk.launch;

import cctk.CauseFile;
import cctk.CctkException;
import cctk.EnvVar;
import cctk.Environment;
import cctk.IoErrors;
import cctk.OwnerFiles;
import cctk.Printable;
import cctk.spec.JobEnvironment;
import cctk.spec.JobSpec;
import cctk.spec.RankJvm;
import cctk.spec.SpecDigest;
import cctk.spec.SpecWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What {@code cctk run} does once its spec is known: checks the machine can hold the ranks, runs each world size of
 * the spec as local rank processes, and at the end names the result files the run wrote (the files that were not in
 * the output directory before). A spec built from flags is frozen into the output directory first, so the result
 * header names a file that is still there. The output directory must be one only this user controls
 * ({@link OwnerFiles#directory}), and the ranks get the SHA-256 of the spec ({@code CCTK_SPEC_SHA256}): a rank
 * refuses a spec file that changed after the launcher wrote or read it.
 * <b>Note:</b> not threadsafe; one run per instance.
 */
public final class LocalRun {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final PrintWriter out;
    private final LocalLauncher launcher;

    /** A run that prints to {@code out} and starts its ranks with {@code launcher}. */
    public LocalRun(final PrintWriter out, final LocalLauncher launcher) {
        this.out = out;
        this.launcher = launcher;
    }

    /**
     * Runs {@code job}: from {@code specFile} when the user named one, else (null) from flags, frozen first.
     *
     * @param rankArgs extra arguments for every {@code cctk rank} (e.g. {@code --backend}, {@code --stacktrace})
     * @param what     how the user named the world sizes, for the capacity error ({@code --nproc})
     * @return the worst exit code of the ranks
     */
    public int run(final JobSpec job, final Path specFile, final List<String> rankArgs, final boolean oversubscribe,
                   final String what) {
        final LocalCapacity capacity = LocalCapacity.probe();
        final long perRank = LocalCapacity.RANK_BASE_BYTES + 3 * RankJvm.largest(job.benchmark());
        for (final int world : job.benchmark().taskCounts()) {
            capacity.check(world, perRank, oversubscribe, what);
        }
        final Path outputDir = Path.of(job.job().outputDir()).toAbsolutePath().normalize();
        prepare(outputDir);
        final Set<Path> before = listing(outputDir);
        final Path file;
        final String digest;
        if (specFile != null) {
            file = specFile.toAbsolutePath();
            digest = SpecDigest.of(file);
        } else {
            final byte[] yaml = SpecWriter.toYaml(job).getBytes(StandardCharsets.UTF_8);
            file = freeze(yaml, outputDir);
            digest = SpecDigest.of(yaml);
        }
        final Map<String, String> env = new LinkedHashMap<>(LocalSpecs.environment(job));
        if (Environment.process().setsAllocator()) {
            // the caller's own glibc settings stand: cctk's for gloo ranks would mix with them
            JobEnvironment.glooAllocator(job).forEach(v -> env.remove(v.name()));
        }
        env.put(EnvVar.CCTK_SPEC_SHA256.name(), digest);
        int worst = 0;
        for (final int world : job.benchmark().taskCounts()) {
            out.println("cctk run: " + world + " rank(s) of " + Printable.of(file.toString()));
            out.flush();
            final List<String> args = new ArrayList<>(List.of("rank", "--spec", file.toString()));
            args.addAll(rankArgs);
            worst = Math.max(worst, launcher.run(world, LocalLauncher.cctkCommand(RankJvm.options(job,
                LocalLauncher.jar()), args), env));
        }
        report(outputDir, before);
        return worst;
    }

    /** Names the files the run added to {@code dir}, one line each, or says there are none. */
    private void report(final Path dir, final Set<Path> before) {
        final Set<Path> added = listing(dir);
        added.removeAll(before);
        if (added.isEmpty()) {
            out.println("cctk run: no result files were written to " + Printable.of(dir.toString()));
        } else {
            out.println("cctk run: results in " + Printable.of(dir.toString()) + ":");
            added.forEach(f -> out.println("  " + Printable.of(f.getFileName().toString())));
        }
        for (final Path f : added) {
            final String name = f.getFileName().toString();
            if (name.endsWith(CauseFile.SUFFIX)) {
                final Path json = f.resolveSibling(name.substring(0, name.length() - CauseFile.SUFFIX.length())
                    + ".json");
                final String cause = CauseFile.read(json);
                if (cause != null && !Files.exists(json)) {
                    out.println("cctk run: " + Printable.of(name) + ": the run ended early: " + cause);
                }
            }
        }
        out.flush();
    }

    private static Set<Path> listing(final Path dir) {
        final Set<Path> files = new TreeSet<>();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(Files::isRegularFile).forEach(files::add);
            } catch (final IOException e) {
                // an unreadable directory lists nothing; the ranks report their own errors writing there
            }
        }
        return files;
    }

    /** The output directory, made and judged before any rank starts ({@link OwnerFiles#directory}). */
    private static void prepare(final Path outputDir) {
        try {
            OwnerFiles.directory(outputDir);
        } catch (final IOException e) {
            throw CctkException.environment("cannot make the output directory " + Printable.of(outputDir.toString())
                + ": " + IoErrors.reason(e) + ".", e);
        }
    }

    /**
     * The spec built from flags, as a new {@code DIR/cctk-run-<stamp>.yaml} (owner-only, in a directory only this
     * user controls): what the ranks read, and check against the digest of {@code yaml}.
     */
    private static Path freeze(final byte[] yaml, final Path outputDir) {
        String name = "cctk-run-" + STAMP.format(LocalDateTime.now());
        try {
            for (int n = 1; Files.exists(outputDir.resolve(name + ".yaml"), LinkOption.NOFOLLOW_LINKS); n++) {
                name = "cctk-run-" + STAMP.format(LocalDateTime.now()) + "-" + n;
            }
            return OwnerFiles.newBytes(outputDir.resolve(name + ".yaml"), yaml);
        } catch (final IOException e) {
            throw CctkException.environment("cannot write the spec built from the flags into " + outputDir + ": "
                + IoErrors.reason(e) + ".", e);
        }
    }
}
