package cctk.bench;

import cctk.CctkException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads an all-to-all-v weight matrix: W lines of W non-negative numbers, '#' starts a comment. Each weight is 0 or
 * a normal, finite number (a subnormal one such as 1e-320 scales to an absurd count), no row or column sum
 * overflows, and not every weight is 0: the counts {@code AllToAllV} scales from them stay between 0 and S.
 */
final class TrafficMatrix {

    private TrafficMatrix() {
    }

    /**
     * The all-to-all-v weights of {@code spec}'s sweep on {@code world} ranks, W×W: from its matrix file (relative
     * to the spec), else spread by its factor; null when the sweep does not run alltoallv (at 8,192 ranks they take
     * 512 MiB).
     */
    static double[][] weights(final cctk.spec.JobSpec spec, final int world) {
        if (!spec.benchmark().collectives().contains(cctk.comm.CollectiveType.ALLTOALLV)) {
            return null;
        }
        final cctk.spec.Benchmark.Imbalance im = spec.benchmark().alltoallv();
        if (im != null && im.matrixFile() != null) {
            Path file = Path.of(im.matrixFile());
            if (!file.isAbsolute() && spec.source() != null && spec.source().getParent() != null) {
                file = spec.source().getParent().resolve(file);
            }
            return load(file, world);
        }
        return cctk.coll.AllToAllV.spreadWeights(world, im == null ? 1.0 : Math.max(1.0, im.spread()));
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
        final List<Integer> lineOf = new ArrayList<>();
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
                if (row[j] > 0 && row[j] < Double.MIN_NORMAL) {
                    throw bad(file, ln, "has " + cells[j] + ", a weight too small to scale (below " + Double.MIN_NORMAL
                        + "); write 0 for no traffic, or scale the whole matrix up");
                }
            }
            if (!Double.isFinite(sum(row))) {
                throw bad(file, ln, "has weights whose sum overflows; scale the whole matrix down");
            }
            rows.add(row);
            lineOf.add(ln);
        }
        if (rows.size() != world) {
            throw CctkException.usage("The alltoallv matrix file " + file + " has " + rows.size()
                + " rows, but the world has " + world + " ranks; it must be a " + world + "x" + world + " matrix.");
        }
        final double[][] w = rows.toArray(new double[0][]);
        double total = 0;
        for (int j = 0; j < world; j++) {
            final double[] column = new double[world];
            for (int i = 0; i < world; i++) {
                column[i] = w[i][j];
            }
            if (!Double.isFinite(sum(column))) {
                throw CctkException.usage(file + ": column " + (j + 1) + " of the alltoallv matrix has weights whose"
                    + " sum overflows; scale the whole matrix down.");
            }
            total += sum(column);
        }
        if (total == 0) {
            throw CctkException.usage(file + ": every weight is 0 in the " + world + "x" + world + " alltoallv matrix"
                + " (lines " + (lineOf.get(0) + 1) + " to " + (lineOf.get(world - 1) + 1) + "), so no rank would send"
                + " anything; give at least one positive weight.");
        }
        return w;
    }

    private static double sum(final double[] values) {
        double s = 0;
        for (final double v : values) {
            s += v;
        }
        return s;
    }

    private static CctkException bad(final Path file, final int ln, final String what) {
        return CctkException.usage(file + ":" + (ln + 1) + ": this row of the alltoallv matrix " + what + ".");
    }
}
