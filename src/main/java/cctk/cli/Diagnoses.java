package cctk.cli;

import cctk.CctkException;
import cctk.IoErrors;
import cctk.Printable;
import cctk.report.DiagnosisPage;
import cctk.report.DiagnosisRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The diagnoses among {@code cctk report}'s inputs (a {@code diagnose_<stamp>.json} named, or in a named directory)
 * and their pages: a node x node heat map of the pairwise bandwidth and a per-node bar chart, per diagnosis.
 * <b>Note:</b> threadsafe (no state).
 */
final class Diagnoses {

    private Diagnoses() {
    }

    /** The diagnosis records named, or lying directly in a named directory, in order. */
    static List<Path> in(final List<Path> inputs) {
        final List<Path> out = new ArrayList<>();
        for (final Path p : inputs) {
            if (DiagnosisRecord.named(p) && Files.isRegularFile(p)) {
                out.add(p);
            } else if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.list(p)) {
                    s.filter(f -> DiagnosisRecord.named(f) && Files.isRegularFile(f)).sorted().forEach(out::add);
                } catch (final IOException e) {
                    // the results reader names an unreadable directory
                }
            }
        }
        return out;
    }

    /** Writes each record's page into {@code output/diagnosis[-N]/} and names it on {@code out}. */
    static void write(final List<Path> records, final Path output, final PrintWriter out) {
        for (int i = 0; i < records.size(); i++) {
            final Path dir = output.resolve(i == 0 ? "diagnosis" : "diagnosis-" + (i + 1));
            try {
                final List<Path> files = DiagnosisPage.write(DiagnosisRecord.read(records.get(i)), dir);
                out.println("cctk: diagnosis " + Printable.of(records.get(i).getFileName().toString()) + " in "
                    + Printable.of(dir.toString()) + " (" + files.size() + " files)");
            } catch (final IOException e) {
                throw CctkException.usage("cannot show the diagnosis " + Printable.of(records.get(i).toString())
                    + ": " + Printable.of(IoErrors.reason(e)) + ".");
            }
        }
        out.flush();
    }
}
