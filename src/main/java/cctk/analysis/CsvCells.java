package cctk.analysis;

import java.util.ArrayList;
import java.util.List;

/** Splits one CSV line into cells (RFC 4180 quoting, as {@link cctk.report.CsvRows#quote} writes it). */
final class CsvCells {

    private CsvCells() {
    }

    /** The cells of {@code line}; null when a quoted cell is not closed (a cut line). */
    static List<String> split(final String line) {
        final List<String> cells = new ArrayList<>();
        final StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            final char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cell.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cell.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                cells.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        if (quoted) {
            return null;
        }
        cells.add(cell.toString());
        return cells;
    }
}
