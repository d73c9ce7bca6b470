package cctk.analysis;

import cctk.ExitCode;
import cctk.spec.Reference;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

/**
 * The end of a run on rank 0: judges the spec's references on the result files this run just wrote, prints
 * PASS/FAIL per reference, and turns a FAIL into {@link ExitCode#FAILED}, so a run can gate a cluster's acceptance.
 */
public final class RunVerdicts {

    private RunVerdicts() {
    }

    /**
     * Judges {@code refs} that apply to {@code backends} on the JSON results in {@code dir} for those backends at
     * {@code world} ranks written since {@code since}. OK without output when no reference applies.
     */
    public static ExitCode judge(final List<Reference> refs, final Path dir, final List<String> backends,
                                 final int world, final Instant since, final PrintWriter out) {
        final List<Reference> mine = refs.stream()
            .filter(r -> r.backend() == null || backends.contains(r.backend())).toList();
        if (mine.isEmpty()) {
            return ExitCode.OK;
        }
        final List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(f -> backends.stream().anyMatch(b -> f.getFileName().toString()
                    .matches("profile_" + java.util.regex.Pattern.quote(b) + "_world" + world + "_.*\\.json")))
                .filter(f -> modifiedSince(f, since)).sorted().toList();
        } catch (final IOException e) {
            out.println("FAIL references: cannot list the results in " + dir + ": " + e.getMessage());
            out.flush();
            return ExitCode.FAILED;
        }
        final ResultSet set = ResultReader.read(files);
        final List<Verdict> verdicts = ReferenceJudge.judge(mine, set);
        verdicts.forEach(v -> out.println(v.line()));
        out.flush();
        return ReferenceJudge.exitCode(verdicts);
    }

    private static boolean modifiedSince(final Path f, final Instant since) {
        try {
            return !Files.getLastModifiedTime(f).toInstant().isBefore(since.minusSeconds(1));
        } catch (final IOException e) {
            return false;
        }
    }
}
