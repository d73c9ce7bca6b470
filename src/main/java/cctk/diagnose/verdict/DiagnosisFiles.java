package cctk.diagnose.verdict;

import cctk.CctkException;
import cctk.IoErrors;
import cctk.Json;
import cctk.OwnerFiles;
import cctk.Ownership;
import cctk.results.CsvOut;
import cctk.results.Numbers;
import cctk.results.ResultCsv;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A diagnosis's result files, written by rank 0 into the job's output directory as result files are (owner-only,
 * never through a link, each as a {@code .part} renamed into place): {@code diagnose_<stamp>.txt} (the verdict for
 * people), {@code .json} (settings, references, suspects with evidence), {@code _nodes.csv} (each node on each
 * test and inside), {@code _pairs.csv} (each pair on each mode) and {@code _ranks.csv} (each rank's arrival skew).
 * <b>Note:</b> threadsafe (no state).
 */
public final class DiagnosisFiles {

    /** What the files say about the run. */
    public record Header(String jobName, LocalDateTime started, long bytes, double threshold, boolean confirm,
                         double seconds, List<String> nics) {
    }

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private DiagnosisFiles() {
    }

    /** Writes the five files; returns their paths (text first). */
    public static List<Path> write(final Path dir, final Header h, final Figures f, final Findings found,
                                   final List<Suspect> verdict) {
        try {
            OwnerFiles.directory(dir);
            String stem = "diagnose_" + STAMP.format(h.started());
            for (int n = 1; Files.exists(dir.resolve(stem + ".json")); n++) {
                stem = "diagnose_" + STAMP.format(h.started()) + "-" + n;
            }
            final List<Path> out = new ArrayList<>();
            out.add(place(dir.resolve(stem + ".txt"), String.join("\n", VerdictText.lines(h, f, found, verdict))
                    + "\n"));
            out.add(csv(dir.resolve(stem + "_nodes.csv"), w -> DiagnosisCsv.nodes(w, f, found, h.threshold())));
            out.add(csv(dir.resolve(stem + "_pairs.csv"), w -> DiagnosisCsv.pairs(w, f, found)));
            out.add(csv(dir.resolve(stem + "_ranks.csv"), w -> DiagnosisCsv.ranks(w, f, h.threshold())));
            final Map<String, Object> doc = DiagnosisJson.document(h, f, found, verdict);
            doc.put("files", Map.of("text", out.get(0).getFileName().toString(), "nodes",
                    out.get(1).getFileName().toString(), "pairs", out.get(2).getFileName().toString(), "ranks",
                    out.get(3).getFileName().toString()));
            out.add(place(dir.resolve(stem + ".json"), Json.write(doc) + "\n"));
            return out;
        } catch (IOException | UncheckedIOException e) {
            final IOException io = e instanceof UncheckedIOException u ? u.getCause() : (IOException) e;
            throw CctkException.environment("cannot write the diagnosis files in " + dir + ": " + IoErrors.reason(io)
                    + ". Check that the job's output directory exists and is writable.", io);
        }
    }

    /** Writes one CSV through its part file. */
    private static Path csv(final Path file, final java.util.function.Consumer<CsvOut> rows) throws IOException {
        final Path part = file.resolveSibling(file.getFileName() + ".part");
        try (BufferedWriter out = OwnerFiles.text(part); CsvOut w = ResultCsv.writer(out)) {
            rows.accept(w);
        }
        Ownership.replaceable(file);
        Files.move(part, file, StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    private static Path place(final Path file, final String text) throws IOException {
        final Path part = file.resolveSibling(file.getFileName() + ".part");
        OwnerFiles.string(part, text);
        Ownership.replaceable(file);
        Files.move(part, file, StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    /** A figure for a file: 6 significant digits, "" when not measured. */
    static String cell(final double v) {
        return Numbers.plain(v);
    }

    /** {key: value} in insertion order. */
    static Map<String, Object> map() {
        return new LinkedHashMap<>();
    }
}
