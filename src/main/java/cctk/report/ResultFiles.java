package cctk.report;

import cctk.IoErrors;
import cctk.OwnerFiles;
import cctk.CctkException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes one run's rows to {@code profile_<backend>_world<N>_<YYYYmmdd-HHMMSS>.txt}, {@code .csv} and
 * {@code .json} in one directory. Rows go to {@code *.part} files and are flushed one by one (the JSON
 * part is rewritten whole, so it always parses); {@link #finish} renames them into place, so a crash
 * leaves the {@code .part} files with everything measured so far. Only rank 0 writes.
 * <b>Note:</b> threadsafe: a signal handler may {@link #finish} while the sweep adds; rows after that are dropped.
 */
public final class ResultFiles implements AutoCloseable {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    private static final String[] SUFFIXES = {".txt", ".csv", ".json"};

    private final RunHeader header;
    private final Path[] finals = new Path[SUFFIXES.length];
    private final Path[] parts = new Path[SUFFIXES.length];
    private final BufferedWriter text;
    private final BufferedWriter csv;
    private final ProfileText profile = new ProfileText();
    private final List<Object> jsonRows = new ArrayList<>();
    private long wrong;
    private boolean checked;
    private double busBwSum;
    private int busBwCount;
    private boolean finished;

    private ResultFiles(final Path dir, final RunHeader header) throws IOException {
        this.header = header;
        OwnerFiles.directory(dir);
        final String stem = "profile_" + header.backend() + "_world" + header.world() + "_"
            + STAMP.format(header.start());
        String unique = stem;
        for (int n = 1; Files.exists(dir.resolve(unique + ".txt")) || Files.exists(dir.resolve(unique + ".txt.part"));
             n++) {
            unique = stem + "-" + n;
        }
        for (int i = 0; i < SUFFIXES.length; i++) {
            finals[i] = dir.resolve(unique + SUFFIXES[i]);
            parts[i] = dir.resolve(unique + SUFFIXES[i] + ".part");
        }
        text = OwnerFiles.text(parts[0]);
        csv = OwnerFiles.text(parts[1]);
        writeLines(text, ProfileText.header(header));
        writeLines(csv, List.of(CsvRows.HEADER));
        writeJson(null);
    }

    /** Creates the three part files in {@code dir} (created if missing) and writes their headers. */
    public static ResultFiles create(final Path dir, final RunHeader header) {
        try {
            return new ResultFiles(dir, header);
        } catch (IOException e) {
            throw CctkException.environment("cannot write the result files in " + dir + ": " + IoErrors.reason(e)
                + ". Check that the job's output directory exists and is writable.", e);
        }
    }

    /** Appends one row to all three files and flushes them; ignored once {@link #finish} ran. */
    public synchronized void add(final Row row) {
        if (finished) {
            return;
        }
        for (final Measurement m : row.measurements()) {
            if (m.measured() && m.wrong() >= 0) {
                checked = true;
                wrong += m.wrong();
            }
            if (m.measured() && row.dtype() != null && Double.isFinite(m.busBw())) {
                busBwSum += m.busBw();
                busBwCount++;
            }
            jsonRows.add(JsonRows.measurement(row, m));
        }
        try {
            writeLines(text, profile.row(row));
            writeLines(csv, CsvRows.lines(header.backend(), header.world(), row));
            writeJson(null);
        } catch (IOException e) {
            throw CctkException.environment("could not append to the result files in " + parts[0].getParent() + ": "
                + IoErrors.reason(e) + ".", e);
        }
    }

    /** Wrong elements in all rows so far. */
    public synchronized long wrong() {
        return wrong;
    }

    /**
     * Writes the footers and moves the files into place; {@code error} (null when the sweep completed)
     * is recorded as the reason the run stopped early. Returns the final paths: text, CSV, JSON.
     */
    public synchronized List<Path> finish(final String error) {
        if (finished) {
            return List.of(finals);
        }
        finished = true;
        try {
            final double avg = busBwCount == 0 ? Double.NaN : busBwSum / busBwCount;
            writeLines(text, ProfileText.footer(wrong, avg, checked, error));
            text.close();
            csv.close();
            final Map<String, Object> end = new LinkedHashMap<>();
            end.put("wrong", checked ? wrong : null);
            end.put("average_bus_bandwidth", avg);
            end.put("status", error != null ? "INCOMPLETE" : wrong > 0 ? "FAILED" : "OK");
            end.put("error", error);
            writeJson(end);
            for (int i = 0; i < SUFFIXES.length; i++) {
                Files.move(parts[i], finals[i], StandardCopyOption.REPLACE_EXISTING);
            }
            return List.of(finals);
        } catch (IOException e) {
            throw CctkException.environment("could not finish the result files in " + parts[0].getParent()
                + ": " + IoErrors.reason(e) + ".", e);
        }
    }

    /** The paths rows are written to until {@link #finish}: text, CSV, JSON. */
    public List<Path> partPaths() {
        return List.of(parts);
    }

    /** Closes the part files without renaming them (what a crash leaves). */
    @Override
    public synchronized void close() {
        try {
            text.close();
            csv.close();
        } catch (IOException e) {
            // nothing more to save: the rows already written were flushed
        }
    }

    private static void writeLines(final BufferedWriter w, final List<String> lines) throws IOException {
        for (final String line : lines) {
            w.write(line);
            w.newLine();
        }
        w.flush();
    }

    private void writeJson(final Map<String, Object> end) throws IOException {
        final Map<String, Object> doc = JsonRows.document(header, jsonRows, end);
        final Path tmp = parts[2].resolveSibling(parts[2].getFileName() + ".tmp");
        OwnerFiles.string(tmp, Json.write(doc) + "\n");
        Files.move(tmp, parts[2], StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
