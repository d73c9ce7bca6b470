package cctk.bench;

import cctk.CctkException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads an all-to-all-v weight matrix: W lines of W non-negative numbers, '#' starts a comment. */
final class TrafficMatrix {

    private TrafficMatrix() {
    }

    static double[][] load(final Path file, final int world) {
        final List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw CctkException.usage("cctk cannot read the alltoallv matrix file " + file + ": " + e.getMessage()
                + ". Give benchmark.alltoallv.matrix_file as a readable path.");
        }
        final List<double[]> rows = new ArrayList<>();
        for (int ln = 0; ln < lines.size(); ln++) {
            final String line = lines.get(ln).replaceFirst("#.*", "").trim();
            if (line.isEmpty()) {
                continue;
            }
            final String[] cells = line.split("[\\s,]+");
            if (cells.length != world) {
                throw bad(file, ln, "has " + cells.length + " numbers, but the world has " + world + " ranks");
            }
            final double[] row = new double[world];
            for (int j = 0; j < world; j++) {
                try {
                    row[j] = Double.parseDouble(cells[j]);
                } catch (NumberFormatException e) {
                    throw bad(file, ln, "has '" + cells[j] + "', which is not a number");
                }
                if (!(row[j] >= 0) || Double.isInfinite(row[j])) {
                    throw bad(file, ln, "has " + cells[j] + "; weights must be finite and not negative");
                }
            }
            rows.add(row);
        }
        if (rows.size() != world) {
            throw CctkException.usage("The alltoallv matrix file " + file + " has " + rows.size()
                + " rows, but the world has " + world + " ranks; it must be a " + world + "x" + world + " matrix.");
        }
        return rows.toArray(new double[0][]);
    }

    private static CctkException bad(final Path file, final int ln, final String what) {
        return CctkException.usage(file + ":" + (ln + 1) + ": this row of the alltoallv matrix " + what + ".");
    }
}
