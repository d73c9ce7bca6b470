package cctk;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.NamedCsvRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A CSV file with a header line, read as rows of cells by column name (through FastCSV, so quoted cells with commas
 * or quotes read whole): tests name the column they check, and a column added or moved cannot shift what they read.
 */
public final class CsvRows {

    private CsvRows() {
    }

    /** The rows of {@code file}, each a map from column name to cell, in file order; the header is not a row. */
    public static List<Map<String, String>> of(final Path file) throws IOException {
        try (CsvReader<NamedCsvRecord> r = CsvReader.builder().ofNamedCsvRecord(file)) {
            return r.stream().map(NamedCsvRecord::getFieldsAsMap).toList();
        }
    }

    /** The rows of the one {@code .csv} file in {@code dir}. */
    public static List<Map<String, String>> inDirectory(final Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            final List<Path> csv = s.filter(p -> p.toString().endsWith(".csv")).toList();
            if (csv.size() != 1) {
                throw new AssertionError("expected one .csv file in " + dir + ", found " + csv);
            }
            return of(csv.get(0));
        }
    }

    /** The rows, one line each, for a failing assertion's description. */
    public static String show(final Map<String, String> row) {
        return String.join(",", row.values());
    }
}
