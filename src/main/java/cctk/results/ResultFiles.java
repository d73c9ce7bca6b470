package cctk.results;

import cctk.CauseFile;
import cctk.CctkException;
import cctk.IoErrors;
import cctk.OwnerFiles;
import cctk.Ownership;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes one run's measurements to {@code profile_<backend>_world<N>_<YYYYmmdd-HHMMSS>.txt}, {@code .csv} and
 * {@code .json} in one directory. Rows go to {@code *.part} files and are flushed one by one, each file growing by
 * that row alone (the JSON part is closed after every row, so it always parses: {@link JsonPartFile});
 * {@link #finish} renames them into place, so a crash leaves the {@code .part} files with everything measured so far.
 * Only rank 0 writes. It keeps the measurements, so the run can be judged in memory ({@link #results}).
 * <b>Note:</b> threadsafe: a signal handler may {@link #finish} while the sweep adds; rows after that are dropped.
 */
public final class ResultFiles implements AutoCloseable {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    private static final String[] SUFFIXES = {".txt", ".csv", ".json"};

    private final Path[] finals = new Path[SUFFIXES.length];
    private final Path[] parts = new Path[SUFFIXES.length];
    private final BufferedWriter text;
    private final BufferedWriter csvOut;
    private final CsvOut csv;
    private final ProfileText profile = new ProfileText();
    private final List<Result> results = new ArrayList<>();
    private final JsonPartFile json;
    private Run run;
    private long wrong;
    private boolean checked;
    private double busBwSum;
    private int busBwCount;
    private boolean finished;
    private Map<String, Object> fillCheck;
    private Map<String, Object> jit;
    private Map<String, Object> costs;
    private Map<String, Object> machine;

    private ResultFiles(final Path dir, final Run header) throws IOException {
        OwnerFiles.directory(dir);
        final String stem = "profile_" + header.backend() + "_world" + header.world() + "_"
            + STAMP.format(LocalDateTime.parse(header.start()));
        String unique = stem;
        for (int n = 1; taken(dir, unique); n++) {
            unique = stem + "-" + n;
        }
        for (int i = 0; i < SUFFIXES.length; i++) {
            finals[i] = dir.resolve(unique + SUFFIXES[i]);
            parts[i] = dir.resolve(unique + SUFFIXES[i] + ".part");
        }
        run = header.at(finals[2].toString());
        try {
            text = OwnerFiles.newText(parts[0]);
            csvOut = OwnerFiles.newText(parts[1]);
            csv = ResultCsv.writer(csvOut);
            writeLines(text, ProfileText.header(run));
            ResultCsv.header(csv, false);
            csv.flush();
            json = JsonPartFile.open(parts[2], ResultJson.head(run), ResultJson.ROWS);
        } catch (IOException | RuntimeException e) {
            closeQuietly();
            throw e;
        }
    }

    /** Whether any of the six files named {@code stem} (final or part) is there, even as a dangling link. */
    private static boolean taken(final Path dir, final String stem) {
        for (final String suffix : SUFFIXES) {
            if (Files.exists(dir.resolve(stem + suffix), LinkOption.NOFOLLOW_LINKS)
                || Files.exists(dir.resolve(stem + suffix + ".part"), LinkOption.NOFOLLOW_LINKS)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Creates the three part files in {@code dir} (created if missing) and writes their headers; {@code header}
     * must have a start time (it names the files).
     */
    public static ResultFiles create(final Path dir, final Run header) {
        try {
            return new ResultFiles(dir, header);
        } catch (IOException | UncheckedIOException e) {
            final IOException io = e instanceof UncheckedIOException u ? u.getCause() : (IOException) e;
            throw CctkException.environment("cannot write the result files in " + dir + ": " + IoErrors.reason(io)
                + ". Check that the job's output directory exists and is writable.", io);
        }
    }

    /** The run as these files record it: its source is the final JSON file. */
    public synchronized Run run() {
        return run;
    }

    /** Appends one point to all three files and flushes them; ignored once {@link #finish} ran. */
    public synchronized void add(final Line line) {
        if (finished) {
            return;
        }
        for (final Result m : line.results()) {
            if (m.measured() && m.wrong() >= 0) {
                checked = true;
                wrong += m.wrong();
            }
            if (m.measured() && m.dtype() != null && Double.isFinite(m.busBw())) {
                busBwSum += m.busBw();
                busBwCount++;
            }
            results.add(m);
        }
        try {
            writeLines(text, profile.line(line));
            for (final Result m : line.results()) {
                ResultCsv.row(csv, m, false);
            }
            csv.flush();
            json.add(line.results().stream().map(ResultJson::row).toList());
        } catch (IOException | UncheckedIOException e) {
            final IOException io = e instanceof UncheckedIOException u ? u.getCause() : (IOException) e;
            throw CctkException.environment("could not append to the result files in " + parts[0].getParent()
                + ": " + IoErrors.reason(io) + ".", io);
        }
    }

    /**
     * Records how fast the run filled, poisoned and checked its buffers, per rank (the mean over ranks): the JSON's
     * {@code summary.fill_check} and a footer line say so once the run ends.
     */
    public synchronized void fillCheck(final double bytesPerRank, final double secondsPerRank) {
        final Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("bytes_per_rank", Math.round(bytesPerRank));
        m.put("seconds_per_rank", Numbers.significant(secondsPerRank));
        m.put("gbps_per_rank", secondsPerRank > 0 ? Numbers.significant(bytesPerRank / secondsPerRank / 1e9) : null);
        fillCheck = m;
    }

    /**
     * What the JIT and the collector did to the sweep's timings ({@code summary}: one sentence, and its figures),
     * which {@code summary.jit} and a footer line say once the run ends.
     */
    public synchronized void jitDuringSweep(final Map<String, Object> figures) {
        jit = new java.util.LinkedHashMap<>(figures);
    }

    /**
     * Where the run's time went (start, set-up, warm-up, sweep, timed loops; {@code summary}: one sentence), which
     * {@code summary.time} and a footer line say once the run ends.
     */
    public synchronized void costs(final Map<String, Object> figures) {
        costs = new java.util.LinkedHashMap<>(figures);
    }

    /**
     * The machine's cross-core reading after the sweep ({@link CrossCoreReadings#json}), against the one before the
     * warm-up (the run's {@code args.machine}), which {@code summary.machine} and a footer line say once the run ends.
     */
    public synchronized void machine(final Map<String, Object> reading) {
        machine = new java.util.LinkedHashMap<>(reading);
        machine.put("summary", CrossCoreReadings.sentence(run.args().get(CrossCoreReadings.ARG), reading));
    }

    /** Wrong elements in all rows so far. */
    public synchronized long wrong() {
        return wrong;
    }

    /** Every measurement added so far, in order. */
    public synchronized List<Result> results() {
        return List.copyOf(results);
    }

    /**
     * Writes the footers and moves the files into place; {@code error} (null when the sweep completed) is recorded
     * as the reason the run stopped early. Returns the final paths: text, CSV, JSON.
     */
    public synchronized List<Path> finish(final String error) {
        if (finished) {
            return List.of(finals);
        }
        finished = true;
        run = run.ended(error != null ? Run.INCOMPLETE : wrong > 0 ? "FAILED" : "OK", error);
        try {
            writeLines(text, ProfileText.footer(wrong, average(), checked, error));
            if (fillCheck != null && fillCheck.get("gbps_per_rank") != null) {
                writeLines(text, List.of("# Fill, poison, check : " + fillCheck.get("gbps_per_rank")
                    + " GB/s per rank (" + fillCheck.get("bytes_per_rank") + " bytes in "
                    + fillCheck.get("seconds_per_rank") + " s)"));
            }
            if (jit != null && jit.get("summary") != null) {
                writeLines(text, List.of("# JIT during the sweep: " + jit.get("summary")));
            }
            if (costs != null && costs.get("summary") != null) {
                writeLines(text, List.of("# Time: " + costs.get("summary")));
            }
            if (machine != null) {
                writeLines(text, List.of("# Machine: " + machine.get("summary")));
            }
            text.close();
            csv.close();
            json.finish(end());
            json.close();
            for (int i = 0; i < SUFFIXES.length; i++) {
                Ownership.replaceable(finals[i]);
                Files.move(parts[i], finals[i], StandardCopyOption.REPLACE_EXISTING);
            }
            // the final files now say why the run ended: another rank's cause file is no longer needed
            Files.deleteIfExists(CauseFile.of(finals[2]));
            return List.of(finals);
        } catch (IOException | UncheckedIOException e) {
            final IOException io = e instanceof UncheckedIOException u ? u.getCause() : (IOException) e;
            throw CctkException.environment("could not finish the result files in " + parts[0].getParent()
                + ": " + IoErrors.reason(io) + ".", io);
        }
    }

    /** The paths rows are written to until {@link #finish}: text, CSV, JSON. */
    public List<Path> partPaths() {
        return List.of(parts);
    }

    /** Closes the part files without renaming them (what a crash leaves). */
    @Override
    public synchronized void close() {
        closeQuietly();
    }

    private void closeQuietly() {
        for (final AutoCloseable c : new AutoCloseable[] {text, csv != null ? csv : csvOut, json}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // nothing more to save: the rows already written were flushed
            }
        }
    }

    private double average() {
        return busBwCount == 0 ? Double.NaN : busBwSum / busBwCount;
    }

    private static void writeLines(final BufferedWriter w, final List<String> lines) throws IOException {
        for (final String line : lines) {
            w.write(line);
            w.newLine();
        }
        w.flush();
    }

    /** The fields after the rows: the end of {@link ResultJson#document}, and the summary when there is one. */
    private Map<String, Object> end() {
        final Map<String, Object> end = ResultJson.end(run, wrong, checked, average());
        if (fillCheck != null || jit != null || costs != null || machine != null) {
            final Map<String, Object> summary = new java.util.LinkedHashMap<>();
            if (fillCheck != null) {
                summary.put("fill_check", fillCheck);
            }
            if (jit != null) {
                summary.put("jit", jit);
            }
            if (costs != null) {
                summary.put("time", costs);
            }
            if (machine != null) {
                summary.put(CrossCoreReadings.ARG, machine);
            }
            end.put("summary", summary);
        }
        return end;
    }
}
