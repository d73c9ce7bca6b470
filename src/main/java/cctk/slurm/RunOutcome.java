package cctk.slurm;

import cctk.CauseFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What {@code cctk submit --wait} says about a finished job's result files: "results in DIR" when every run
 * written since the submission completed, else "incomplete" naming the files and the cause their
 * {@code # Incomplete:} line gives, or the {@code .part} files a killed run left.
 */
public final class RunOutcome {

    private static final Pattern INCOMPLETE = Pattern.compile("(?m)^# Incomplete: (.*)$");
    private static final int MOST_NAMED = 4;

    private final boolean incomplete;
    private final String words;

    private RunOutcome(final boolean incomplete, final String words) {
        this.incomplete = incomplete;
        this.words = words;
    }

    /** Looks at the profile files in {@code dir} written at or after {@code since}. */
    public static RunOutcome of(final Path dir, final Instant since) {
        final List<String> stopped = new ArrayList<>();
        final List<String> parts = new ArrayList<>();
        try (Stream<Path> s = Files.isDirectory(dir) ? Files.list(dir) : Stream.empty()) {
            for (final Path p : s.sorted().toList()) {
                final String name = p.getFileName().toString();
                if (!name.startsWith("profile_") || Files.getLastModifiedTime(p).toInstant().isBefore(since)) {
                    continue;
                }
                if (name.endsWith(".txt.part")) {
                    final String cause = CauseFile.read(p.resolveSibling(name.replaceFirst("\\.txt\\.part$",
                        ".json.part")));
                    parts.add(name + (cause == null ? "" : " (" + cause + ")"));
                } else if (name.endsWith(".txt")) {
                    final Matcher m = INCOMPLETE.matcher(Files.readString(p, StandardCharsets.UTF_8));
                    if (m.find()) {
                        stopped.add(name + " (" + m.group(1).strip() + ")");
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return new RunOutcome(false, "results in " + dir + " (cannot list it: " + e.getMessage() + ")");
        }
        if (stopped.isEmpty() && parts.isEmpty()) {
            return new RunOutcome(false, "results in " + dir);
        }
        final StringBuilder sb = new StringBuilder("incomplete results in " + dir + ": ");
        if (!stopped.isEmpty()) {
            sb.append(named(stopped));
        }
        if (!parts.isEmpty()) {
            sb.append(stopped.isEmpty() ? "" : "; ").append("only part files (the run was killed before it could"
                + " finish them): ").append(named(parts));
        }
        return new RunOutcome(true, sb.toString());
    }

    private static String named(final List<String> names) {
        final List<String> shown = names.subList(0, Math.min(MOST_NAMED, names.size()));
        return String.join(", ", shown) + (names.size() > shown.size() ? " and " + (names.size() - shown.size())
            + " more" : "");
    }

    /** Whether some run stopped early or left only part files. */
    public boolean incomplete() {
        return incomplete;
    }

    /** "results in DIR" or "incomplete results in DIR: FILE (cause), ...". */
    public String words() {
        return words;
    }
}
