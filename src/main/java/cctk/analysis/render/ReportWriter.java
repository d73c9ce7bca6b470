package cctk.analysis.render;

import cctk.CctkException;
import cctk.analysis.Analysis;
import cctk.analysis.ReferenceJudge;
import cctk.analysis.ResultSet;
import cctk.analysis.Run;
import cctk.analysis.Verdict;
import cctk.spec.Reference;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes a report directory: {@code combined.csv}, {@code full_results.md}, {@code summary_by_config.md},
 * {@code analysis.txt}, {@code plots/*.png} and the self-contained {@code report.html}.
 */
public final class ReportWriter {

    /**
     * What was written and judged.
     *
     * @param files    every file written, in order
     * @param plots    the plots
     * @param analysis the figures
     * @param verdicts PASS/FAIL per reference and run
     * @param text     the text analysis, as written to analysis.txt
     */
    public record Report(List<Path> files, List<Plots.Plot> plots, Analysis analysis, List<Verdict> verdicts,
                         List<String> text) {
    }

    private ReportWriter() {
    }

    /**
     * Writes the report of {@code set} into {@code dir} (created when missing). {@code refs} null judges the
     * references the runs recorded; {@code atBytes} is the size of the comparison chart.
     */
    public static Report write(final ResultSet set, final List<Reference> refs, final long atBytes,
                               final double cvLimit, final Path dir) {
        final List<Reference> judged = refs != null ? refs : recorded(set);
        final Analysis analysis = Analysis.of(set, cvLimit);
        final List<Verdict> verdicts = ReferenceJudge.judge(judged, set);
        final List<String> text = AnalysisText.lines(set, analysis, verdicts, cvLimit);
        final List<Path> files = new ArrayList<>();
        try {
            Files.createDirectories(dir.resolve("plots"));
            files.add(write(dir.resolve("combined.csv"), CombinedCsv.lines(set)));
            final Table full = Tables.full(set);
            files.add(write(dir.resolve("full_results.md"), Markdown.table(full)));
            final List<Table> summary = new ArrayList<>(List.of(Tables.runs(set), Tables.summary(set, analysis),
                Tables.atSize(set, atBytes)));
            if (!verdicts.isEmpty()) {
                summary.add(Tables.verdicts(verdicts));
            }
            final List<String> md = new ArrayList<>(List.of("# cctk report", ""));
            summary.forEach(t -> md.addAll(Markdown.table(t)));
            files.add(write(dir.resolve("summary_by_config.md"), md));
            files.add(write(dir.resolve("analysis.txt"), text));
            final List<Plots.Plot> plots = Plots.write(set, atBytes, dir.resolve("plots"));
            plots.forEach(p -> files.add(p.file()));
            final List<Table> all = new ArrayList<>(summary);
            all.add(full);
            files.add(writeText(dir.resolve("report.html"), HtmlPage.page(title(set), text, plots, all)));
            return new Report(List.copyOf(files), plots, analysis, verdicts, text);
        } catch (final IOException e) {
            throw CctkException.environment("cctk cannot write the report in " + dir + ": " + e.getMessage()
                + ". Check that the directory is writable.", e);
        }
    }

    /** The references the runs recorded, each once. */
    static List<Reference> recorded(final ResultSet set) {
        final Set<Reference> refs = new LinkedHashSet<>();
        for (final Run r : set.runs()) {
            refs.addAll(r.references());
        }
        return List.copyOf(refs);
    }

    private static String title(final ResultSet set) {
        final Set<String> names = new LinkedHashSet<>();
        set.runs().forEach(r -> names.add(set.nameOf(r)));
        return "cctk report: " + String.join(", ", names);
    }

    private static Path write(final Path file, final List<String> lines) throws IOException {
        return writeText(file, String.join("\n", lines) + "\n");
    }

    private static Path writeText(final Path file, final String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }
}
