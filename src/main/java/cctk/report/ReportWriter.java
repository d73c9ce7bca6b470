package cctk.report;

import cctk.CctkException;
import cctk.OwnerFiles;
import cctk.Printable;
import cctk.results.Reference;
import cctk.results.judge.ReferenceJudge;
import cctk.results.ResultSet;
import cctk.results.Run;
import cctk.results.judge.Verdict;
import java.io.IOException;
import java.io.Writer;
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

    private static final int TITLE_RUNS = 8;

    private ReportWriter() {
    }

    /**
     * Writes the report of {@code set} into {@code dir} (created when missing). {@code refs} null judges the
     * references the runs recorded; {@code atBytes} is the size of the comparison chart.
     */
    public static Report write(final ResultSet set, final List<Reference> refs, final long atBytes,
                               final double cvLimit, final Path dir) {
        return write(set, refs, atBytes, cvLimit, dir, false);
    }

    /**
     * As {@link #write(ResultSet, List, long, double, Path)}; {@code ncclTests} also writes every run in nccl-tests'
     * text layout into {@code nccl-tests/} ({@link NcclTestsExport}). The files an earlier report in {@code dir}
     * made under names from data are removed first ({@link StaleFiles}).
     */
    public static Report write(final ResultSet set, final List<Reference> refs, final long atBytes,
                               final double cvLimit, final Path dir, final boolean ncclTests) {
        final List<Reference> judged = refs != null ? refs : recorded(set);
        final Analysis analysis = Analysis.of(set, cvLimit);
        final List<Verdict> verdicts = ReferenceJudge.judge(judged, set);
        final List<String> text = AnalysisText.lines(set, analysis, verdicts, cvLimit);
        final List<Path> files = new ArrayList<>();
        try {
            OwnerFiles.directory(dir);
            final Path plotDir = OwnerFiles.subdirectory(dir, "plots");
            StaleFiles.remove(dir);
            files.add(write(dir.resolve("combined.csv"), w -> CombinedCsv.write(set, w)));
            final Table full = Tables.full(set);
            files.add(write(dir.resolve("full_results.md"), w -> Markdown.write(full, w)));
            final List<Table> summary = new ArrayList<>(List.of(Tables.runs(set), Tables.summary(set, analysis),
                Tables.atSize(set, atBytes)));
            if (!verdicts.isEmpty()) {
                summary.add(Tables.verdicts(verdicts));
            }
            files.add(write(dir.resolve("summary_by_config.md"), w -> {
                w.write("# cctk report\n\n");
                for (final Table t : summary) {
                    Markdown.write(t, w);
                }
            }));
            files.add(write(dir.resolve("analysis.txt"), w -> {
                for (final String line : text) {
                    w.write(line);
                    w.write('\n');
                }
            }));
            final List<Plots.Plot> plots = Plots.write(set, atBytes, plotDir);
            plots.forEach(p -> files.add(p.file()));
            final List<Table> all = new ArrayList<>(summary);
            all.add(full);
            if (ncclTests) {
                files.addAll(NcclTestsExport.write(set, OwnerFiles.subdirectory(dir, NcclTestsExport.DIRECTORY)));
            }
            files.add(write(dir.resolve("report.html"), w -> HtmlPage.page(w, title(set), text, plots, all,
                Series.collectives(Series.of(set)))));
            files.add(StaleFiles.record(dir, files));
            return new Report(List.copyOf(files), plots, analysis, verdicts, text);
        } catch (final IOException | java.io.UncheckedIOException u) {
            // a writer inside a lambda (a page, a table) wraps its IOException: a full disk is the same error
            final IOException e = u instanceof java.io.UncheckedIOException w ? w.getCause() : (IOException) u;
            throw CctkException.environment("cannot write the report in " + Printable.of(dir.toString()) + ": "
                + Printable.of(why(e)) + ". Check that the directory is writable and that no"
                + " symbolic link stands where a report file goes.", e);
        }
    }

    /** What went wrong, in words: a file system exception's message is often only the path. */
    private static String why(final IOException e) {
        final String m = String.valueOf(e.getMessage());
        if (e instanceof java.nio.file.FileAlreadyExistsException) {
            return m + ": a file of that name is where a directory is needed";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return m + ": permission denied";
        }
        if (e instanceof java.nio.file.NoSuchFileException) {
            return m + ": no such file or directory";
        }
        return m;
    }

    /** {@code e} with the file it is about named first. */
    static IOException named(final Path file, final IOException e) {
        final String m = String.valueOf(e.getMessage());
        return m.contains(file.toString()) ? e : new IOException(file + ": " + m, e);
    }

    /** Writes one file's text. */
    private interface Body {
        void to(Writer w) throws IOException;
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
        set.runs().stream().limit(TITLE_RUNS).forEach(r -> names.add(set.nameOf(r)));
        return "cctk report: " + String.join(", ", names) + (set.runs().size() > TITLE_RUNS ? " and "
            + (set.runs().size() - TITLE_RUNS) + " more runs" : "");
    }

    /** Writes {@code file} as a stream, created owner-only, never through a link. */
    private static Path write(final Path file, final Body body) throws IOException {
        try (Writer w = OwnerFiles.text(file)) {
            body.to(w);
        } catch (final IOException e) {
            throw named(file, e);
        }
        return file;
    }
}
