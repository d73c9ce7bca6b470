package cctk.report;

import cctk.Json;
import cctk.Printable;
import cctk.results.CsvOut;
import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A {@code cctk diagnose} record as a report reads it: the JSON (nodes, modes, suspects) and, beside it, the CSV
 * files it names: every pair's figures per mode and every node's figure per test. Names of the files beside it
 * must be plain file names; text from the files reaches a report only through {@link Printable}.
 * <b>Note:</b> immutable once read.
 *
 * @param json      the record's path
 * @param doc       its JSON
 * @param nodes     node names in node-index order
 * @param modes     pair modes ({@code eth0}, {@code eth1}, {@code striped})
 * @param pairs     per mode, node × node sendrecv busbw in GB/s (NaN: not measured or the diagonal)
 * @param nodeTests per test name ({@code eth1 sendrecv}, {@code intra-node all_reduce pass 1}), each node's figure
 * @param verdict   the verdict text's lines
 */
public record DiagnosisRecord(Path json, Map<?, ?> doc, List<String> nodes, List<String> modes,
                              Map<String, double[][]> pairs, Map<String, double[]> nodeTests, List<String> verdict) {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9._-]{1,200}");
    /** The most rows one CSV of a diagnosis may have here (2,048 nodes on 9 modes). */
    private static final long MAX_ROWS = 20_000_000L;

    /** Whether {@code file} is named like a diagnosis record ({@code diagnose_<stamp>.json}). */
    public static boolean named(final Path file) {
        return file.getFileName() != null && file.getFileName().toString().matches("diagnose_[0-9-]+\\.json");
    }

    /** Reads the record and the files beside it; an IOException names what is wrong. */
    public static DiagnosisRecord read(final Path json) throws IOException {
        final Object parsed;
        try {
            parsed = Json.parse(Files.readString(json, StandardCharsets.UTF_8));
        } catch (final IllegalArgumentException e) {
            throw new IOException(json + ": " + e.getMessage(), e);
        }
        if (!(parsed instanceof Map<?, ?> doc) || !"cctk-diagnosis".equals(doc.get("kind"))) {
            throw new IOException(json + " is not a cctk diagnosis record (no \"kind\": \"cctk-diagnosis\")");
        }
        final List<String> nodes = strings(doc.get("nodes"));
        final List<String> modes = strings(doc.get("modes"));
        final Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            index.put(nodes.get(i), i);
        }
        final Map<String, double[][]> pairs = new LinkedHashMap<>();
        for (final String m : modes) {
            final double[][] grid = new double[nodes.size()][nodes.size()];
            for (final double[] row : grid) {
                java.util.Arrays.fill(row, Double.NaN);
            }
            pairs.put(m, grid);
        }
        final Map<String, double[]> tests = new LinkedHashMap<>();
        final Map<?, ?> files = doc.get("files") instanceof Map<?, ?> f ? f : Map.of();
        rows(beside(json, files.get("pairs")), r -> {
            final Integer a = index.get(r.get(0));
            final Integer b = index.get(r.get(1));
            final double[][] grid = pairs.get(r.get(2));
            if (a != null && b != null && grid != null) {
                grid[a][b] = number(r.get(3));
                grid[b][a] = grid[a][b];
            }
        });
        rows(beside(json, files.get("nodes")), r -> {
            final Integer i = index.get(r.get(0));
            if (i != null) {
                tests.computeIfAbsent(Printable.of(r.get(1)), k -> {
                    final double[] v = new double[nodes.size()];
                    java.util.Arrays.fill(v, Double.NaN);
                    return v;
                })[i] = number(r.get(2));
            }
        });
        final Path text = beside(json, files.get("text"));
        final List<String> verdict = new ArrayList<>();
        for (final String line : Files.readAllLines(text, StandardCharsets.UTF_8)) {
            verdict.add(Printable.of(line));
        }
        return new DiagnosisRecord(json, doc, nodes, modes, pairs, tests, verdict);
    }

    private static Path beside(final Path json, final Object name) throws IOException {
        if (!(name instanceof String s) || !PLAIN.matcher(s).matches()) {
            throw new IOException(json + " names a file beside it that is no plain file name: "
                    + Printable.of(String.valueOf(name)));
        }
        final Path dir = json.toAbsolutePath().getParent();
        return dir.resolve(s);
    }

    /** Each row after the header with at least 4 cells, as the text written ({@link CsvOut#original}). */
    private static void rows(final Path csv, final java.util.function.Consumer<List<String>> row) throws IOException {
        try (Reader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8);
             CsvReader<CsvRecord> r = CsvReader.builder().allowExtraFields(true).allowMissingFields(true)
                     .skipEmptyLines(true).ofCsvRecord(in)) {
            long n = 0;
            for (final CsvRecord rec : r) {
                if (n++ > 0 && rec.getFieldCount() >= 4) {
                    row.accept(rec.getFields().stream().map(CsvOut::original).toList());
                }
                if (n > MAX_ROWS) {
                    throw new IOException(csv + " has more than " + MAX_ROWS + " rows");
                }
            }
        } catch (final java.io.UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static double number(final String s) {
        try {
            return s.isEmpty() ? Double.NaN : Double.parseDouble(s);
        } catch (final NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static List<String> strings(final Object o) {
        final List<String> out = new ArrayList<>();
        if (o instanceof List<?> l) {
            l.forEach(x -> out.add(Printable.of(String.valueOf(x))));
        }
        return out;
    }
}
